import {
  BusinessRuleError,
  DependencyUnavailableError,
  NotAuthenticatedError,
  PermissionDeniedError,
} from '../errors';
import { LAST_USE_STEP_MS, type KeyStore, type StoredApiKey } from './key-store';
import { logger } from '../observability/logger';
import type { Principal, Scope } from './principal';
import { TOKEN_PATTERN, hashToken } from './tokens';

/** Changes to a key or its creator take effect within this many milliseconds. */
export const KEY_CACHE_TTL_MS = 4_000;

export const ADMIN_CREATOR_DETAIL = 'API key configuration is invalid (creator role)';

interface CacheEntry {
  key?: StoredApiKey;
  loadedAt: number;
  /** When this process last noted the key's use (or found it noted within the minute). */
  notedAt?: number;
}

/**
 * Turns an Authorization header into a Principal, or throws the error the contract names:
 * 1. Missing or malformed bearer token, unknown key, revoked past grace, demoted creator: 401.
 * 2. Creator holding the global admin role: 422 with the fixed detail.
 * 3. Creator without the organization permission, or the scope missing: 403.
 * 4. Key store unreachable: 503 (never 401, never 500).
 * One GetItem (the key carries its creator's standing), cached per token for a few seconds, so
 * a warm function answers without a read.
 */
export class Authenticator {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    private readonly store: KeyStore,
    private readonly now: () => number = Date.now,
  ) {}

  async authenticate(authorization: string | undefined, scope: Scope | undefined): Promise<Principal> {
    return this.authenticateToken(/^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1], scope);
  }

  /** The same checks for a bare token (the dashboard's sign-in form). */
  async authenticateToken(token: string | undefined, scope: Scope | undefined): Promise<Principal> {
    if (!token || !TOKEN_PATTERN.test(token)) throw new NotAuthenticatedError('Missing or invalid API key');
    return this.authenticateTokenHash(hashToken(token), scope);
  }

  /** The same checks for a key known by its token hash (a dashboard session keeps only the hash). */
  async authenticateTokenHash(tokenHash: string, scope: Scope | undefined): Promise<Principal> {
    const entry = await this.load(tokenHash);
    const { key } = entry;
    const user = key?.creator;
    if (!key) throw new NotAuthenticatedError('Missing or invalid API key');
    if (key.validUntil && Date.parse(key.validUntil) <= this.now()) {
      throw new NotAuthenticatedError('The API key has been revoked');
    }
    if (!user || user.orgId !== key.orgId || user.role === 'demoted') {
      throw new NotAuthenticatedError('The API key is no longer valid');
    }
    if (user.role === 'admin') throw new BusinessRuleError(ADMIN_CREATOR_DETAIL);
    if (!user.orgPermission) {
      throw new PermissionDeniedError('The API key creator no longer has permission for this organization');
    }
    if (scope && !key.scopes.includes(scope)) {
      throw new PermissionDeniedError(`The API key lacks the scope ${scope}`);
    }
    await this.noteUse(tokenHash, entry, key);
    return {
      actor: { type: 'api_key', id: key.keyId },
      orgId: key.orgId,
      mode: key.mode,
      scopes: key.scopes,
      ...(key.acceptorId ? { acceptorId: key.acceptorId } : {}),
    };
  }

  /**
   * The key's last use, to the minute (product-decisions §17), without a write per request: only
   * when neither the stored value nor this process's last note is within the minute. A note that
   * fails is logged and the request goes on: it is a convenience, not the request's work.
   */
  private async noteUse(tokenHash: string, entry: CacheEntry, key: StoredApiKey): Promise<void> {
    const now = this.now();
    const last = Math.max(entry.notedAt ?? 0, key.lastUsedAt ? Date.parse(key.lastUsedAt) : 0);
    if (now - last < LAST_USE_STEP_MS) return;
    entry.notedAt = now;
    try {
      await this.store.noteUse(tokenHash, new Date(now).toISOString());
    } catch (error) {
      logger.warn('api key last use not written', { keyId: key.keyId, error: (error as Error).name });
    }
  }

  private async load(tokenHash: string): Promise<CacheEntry> {
    const cached = this.cache.get(tokenHash);
    if (cached && this.now() - cached.loadedAt < KEY_CACHE_TTL_MS) return cached;
    let entry: CacheEntry;
    try {
      entry = { key: await this.store.findKeyByTokenHash(tokenHash), loadedAt: this.now() };
    } catch {
      throw new DependencyUnavailableError('Authentication is temporarily unavailable; retry with exponential backoff');
    }
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(tokenHash, entry);
    return entry;
  }
}
