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
}
