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
}

export interface StoredUser {
  userId: string;
  orgId: string;
  role: UserRole;
  orgPermission: boolean;
}

/** What authentication needs from storage. Failures to reach it surface as thrown errors. */
export interface KeyStore {
  findKeyByTokenHash(tokenHash: string): Promise<StoredApiKey | undefined>;
  findUser(userId: string): Promise<StoredUser | undefined>;
}
