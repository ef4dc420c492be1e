import type { StoredApiKey } from '../auth/key-store';
import type { Mode, Scope } from '../auth/principal';
import type { Directory } from '../db/directory';
import { requirePermission, type TeamRole } from '../domain/team-roles';
import { NotFoundError } from '../errors';
import { ROLL_OVERLAPS, type RollOverlap } from '../domain/api-keys';

/**
 * The API keys a merchant manages from the dashboard (product-decisions §17): the keys of the
 * page's mode, made, rolled and revoked by a person whose role holds that mode's key permission
 * (`api_key:test`, `api_key:live`: developers test mode only). A key made here follows the
 * contract's rules as `ops key create`'s do, with the person as its creator. Tokens are shown
 * once, by the form's answer, and never read again: only their hashes are stored.
 */

/** Who acts: the person (their id is the new key's creator, their role decides the mode), in the page's mode. */
export interface KeyManager {
  userId: string;
  orgId: string;
  teamRole: TeamRole;
  mode: Mode;
}

export type ApiKeyDeps = { directory: Pick<Directory, 'listApiKeys' | 'createApiKey' | 'findApiKey' | 'rollApiKey' | 'revokeApiKey'> };

const requireModePermission = (manager: KeyManager) => requirePermission(manager.teamRole, `api_key:${manager.mode}`);

/** A key of the manager's organization and mode, else the one 404 for unknown, foreign and other-mode ids. */
async function ownKey(deps: ApiKeyDeps, manager: KeyManager, keyId: string): Promise<StoredApiKey> {
  const key = /^key_[0-9a-z]{26}$/.test(keyId) ? await deps.directory.findApiKey(keyId) : undefined;
  if (!key || key.orgId !== manager.orgId || key.mode !== manager.mode) throw new NotFoundError();
  return key;
}

export function apiKeys(deps: ApiKeyDeps) {
  return {
    /** The organization's keys of the page's mode, newest first. */
    async list(manager: KeyManager): Promise<StoredApiKey[]> {
      requireModePermission(manager);
      const all = await deps.directory.listApiKeys(manager.orgId);
      return all.filter((key) => key.mode === manager.mode).reverse();
    },

    /** A new key of the page's mode, created by the person: its id and its token, shown once. */
    create(manager: KeyManager, input: { name: string; scopes: Scope[]; acceptorId?: string }) {
      requireModePermission(manager);
      return deps.directory.createApiKey({
        orgId: manager.orgId,
        creatorId: manager.userId,
        mode: manager.mode,
        scopes: input.scopes,
        name: input.name,
        ...(input.acceptorId ? { acceptorId: input.acceptorId } : {}),
      });
    },

    /** Replaces a key: the new one's token, shown once; the old one works for the overlap chosen, then 401. */
    async roll(manager: KeyManager, keyId: string, overlap: RollOverlap) {
      requireModePermission(manager);
      await ownKey(deps, manager, keyId);
      return deps.directory.rollApiKey(keyId, manager.userId, ROLL_OVERLAPS[overlap]);
    },

    /** Ends a key at once (401 from the next request, within the key cache's 5 seconds). */
    async revoke(manager: KeyManager, keyId: string) {
      requireModePermission(manager);
      await ownKey(deps, manager, keyId);
      return deps.directory.revokeApiKey(keyId, 0);
    },
  };
}

export type ApiKeys = ReturnType<typeof apiKeys>;
