import { createHash } from 'node:crypto';

/**
 * Passkeys (product-decisions §16): WebAuthn credentials a user registers on the Security page,
 * each with a name, discoverable (resident) and verified by the authenticator (PIN or
 * biometrics), so that `Sign in with a passkey` needs no email and counts as both factors.
 */
export interface Passkey {
  /** The credential id, base64url (as the browser's `id`). */
  credentialId: string;
  /** Its COSE public key, base64url. */
  publicKey: string;
  /** The authenticator's signature counter at the last use (0 for passkeys that keep none). */
  counter: number;
  transports: string[];
  name: string;
  createdAt: string;
  lastUsedAt?: string;
  /** Synced across the person's devices (a multi-device credential) or bound to one. */
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

/** What a challenge was issued for: registering a passkey of a signed-in user, or signing in with one. */
export type ChallengePurpose = 'registration' | 'authentication';

/**
 * A challenge issued to one browser, single-use, for a short while (the Copenhagen Book: a
 * random token of at least 16 bytes; SimpleWebAuthn's are 32). `binding` is the hash of the
 * cookie the browser holds (its session or its sign-in cookie): a challenge obtained in one
 * browser cannot be answered from another.
 */
export interface WebAuthnChallenge {
  purpose: ChallengePurpose;
  /** The signed-in user registering a passkey; none for a sign-in, which learns the user from the passkey. */
  userId?: string;
  binding: string;
  expiresAt: string;
}

/** How long a ceremony may take: the browser's own timeout is the same. */
export const CHALLENGE_SECONDS = 5 * 60;

export const PASSKEY_NAME_MAX_LENGTH = 64;

/** The relying party: the dashboard's host as its id (locally the loopback name it was reached by) and the origin its pages are served from. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export const RELYING_PARTY_NAME = 'Payment operations';

/** What keys a challenge or a credential in the table: its SHA-256 (a credential id may be up to 1,023 bytes, longer than a sort key may be). */
export const webAuthnKeyHash = (value: string) => createHash('sha256').update(value).digest('base64url');

/** Port: challenges and credentials in the table. */
export interface PasskeyStore {
  saveChallenge(challenge: string, issued: WebAuthnChallenge): Promise<void>;
  /** Takes a challenge once, only for its purpose, user and browser and before it expires: false otherwise (nothing taken). */
  takeChallenge(challenge: string, expected: { purpose: ChallengePurpose; userId?: string; binding: string; now: Date }): Promise<boolean>;
  /** Adds a credential unless the user has it already: false then. */
  add(userId: string, passkey: Passkey): Promise<boolean>;
  list(userId: string): Promise<Passkey[]>;
  find(userId: string, credentialId: string): Promise<Passkey | undefined>;
  recordUse(userId: string, credentialId: string, counter: number, at: string): Promise<void>;
  /**
   * Removes a credential of the user: false when the user has no such credential. With
   * `keepASecondFactor`, only while another passkey or two-factor is left (LastSecondFactorError
   * otherwise), checked by the write itself.
   */
  remove(userId: string, credentialId: string, keepASecondFactor: boolean): Promise<boolean>;
}
