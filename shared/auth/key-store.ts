import type { Mode, Scope } from './principal';

export type UserRole = 'member' | 'admin' | 'demoted';

export interface StoredApiKey {
  keyId: string;
  orgId: string;
  mode: Mode;
  scopes: Scope[];
  acceptorId?: string;
  creatorId: string;
  createdAt: string;
  /** The key's last request, written at most once a minute (`KeyStore.noteUse`). */
  lastUsedAt?: string;
  /** What the organization calls it (product-decisions §17); a key made by `ops key create` has none. */
  name?: string;
  /** When set, the key stops working at this moment (revocation plus grace period). */
  validUntil?: string;
  /**
   * The creator's standing, copied onto each of their keys (and rewritten when the user
   * changes) so that authenticating a request is one GetItem.
   */
  creator: CreatorStanding;
}

export type CreatorStanding = Pick<StoredUser, 'orgId' | 'role' | 'orgPermission'>;

export interface StoredUser {
  userId: string;
  orgId: string;
  role: UserRole;
  orgPermission: boolean;
}

/** What authentication needs from storage. Failures to reach it surface as thrown errors. */
export interface KeyStore {
  findKeyByTokenHash(tokenHash: string): Promise<StoredApiKey | undefined>;
  /**
   * Writes `at` as the key's last use unless a use at most `LAST_USE_STEP_MS` older is written
   * already (one conditional UpdateItem; another request's note wins the race, which is the same).
   */
  noteUse(tokenHash: string, at: string): Promise<void>;
}

/** A key's last use is kept to the minute: written at most once a minute, not on every request. */
export const LAST_USE_STEP_MS = 60_000;
