import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import { CHALLENGE_SECONDS, PASSKEY_NAME_MAX_LENGTH, type Passkey, type PasskeyStore, type RelyingParty } from '../domain/passkeys';
import { BusinessRuleError, InvalidRequestError, NotAuthenticatedError, NotFoundError } from '../errors';
import { isoMillis } from '../time';

/** The WebAuthn ceremonies of @simplewebauthn/server (shared/auth/webauthn.ts). */
export type WebAuthnCeremonies = typeof import('../auth/webauthn');

export interface PasskeyDeps {
  passkeys: PasskeyStore;
  /** The ceremonies, loaded by the first that runs: listing or removing passkeys never loads them (decisions 139). */
  ceremonies: () => Promise<WebAuthnCeremonies>;
  now: () => Date;
}

/** Whose passkeys: the signed-in user (the credential's user handle is the user id: random, not personal). */
export interface PasskeyUser {
  id: string;
  email: string;
  name: string;
}

/** ES256 first, RS256 for the authenticators that have only it (the Copenhagen Book, SimpleWebAuthn's example). */
const ALGORITHMS = [-7, -257];

const PASSKEY_REFUSED = 'The passkey could not be verified';

/**
 * Passkeys (product-decisions §16) on @simplewebauthn/server: registration by a signed-in user,
 * sign-in without a password. Both ceremonies require user verification, registration a
 * discoverable (resident) credential; each answer must carry a challenge this service issued to
 * the same browser for that ceremony, unexpired and not used before (taken from the table as it
 * is checked). The relying party (id, origin) is the caller's: the dashboard's host.
 */
export function passkeyUseCases(deps: PasskeyDeps) {
  const { passkeys, ceremonies, now } = deps;
  const expiry = () => isoMillis(now().getTime() + CHALLENGE_SECONDS * 1000);
  /** The library's check of the answer's challenge: taken once, for this ceremony, user and browser. */
  const taking = (expected: { purpose: 'registration' | 'authentication'; userId?: string; binding: string }) => (challenge: string) =>
    passkeys.takeChallenge(challenge, { ...expected, now: now() });

  return {
    /**
     * The options of `navigator.credentials.create()` for a signed-in user: a new challenge kept
     * for this browser, the user's existing passkeys excluded, a resident key and user
     * verification required.
     */
    async registrationOptions(user: PasskeyUser, rp: RelyingParty, binding: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const existing = await passkeys.list(user.id);
      const options = await (await ceremonies()).generateRegistrationOptions({
        rpName: rp.name,
        rpID: rp.id,
        userName: user.email,
        userID: new TextEncoder().encode(user.id),
        userDisplayName: user.name,
        timeout: CHALLENGE_SECONDS * 1000,
        attestationType: 'none',
        excludeCredentials: existing.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
        supportedAlgorithmIDs: ALGORITHMS,
      });
      await passkeys.saveChallenge(options.challenge, { purpose: 'registration', userId: user.id, binding, expiresAt: expiry() });
      return options;
    },

    /**
     * Registers the credential a browser created:
     * 1. a name of 1 to 64 characters (422 beside `name`);
     * 2. the answer verified against a challenge issued to this user in this browser, the
     *    relying party, the origin and user verification (422 otherwise: nothing kept);
     * 3. the credential kept under the user, with its name (422 if the user has it already).
     */
    async registerPasskey(user: PasskeyUser, name: string, response: RegistrationResponseJSON, rp: RelyingParty, binding: string): Promise<Passkey> {
      const trimmed = name.trim();
      if (trimmed.length < 1 || trimmed.length > PASSKEY_NAME_MAX_LENGTH) throw new InvalidRequestError(`Give the passkey a name of 1 to ${PASSKEY_NAME_MAX_LENGTH} characters`, 'name');
      let verified: VerifiedRegistrationResponse;
      try {
        verified = await (await ceremonies()).verifyRegistrationResponse({
          response,
          expectedChallenge: taking({ purpose: 'registration', userId: user.id, binding }),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          requireUserVerification: true,
          supportedAlgorithmIDs: ALGORITHMS,
        });
      } catch {
        // The library's reason may quote what the browser sent: the person is told no more than this.
        throw new BusinessRuleError(PASSKEY_REFUSED, 'credential');
      }
      if (!verified.verified || !verified.registrationInfo) throw new BusinessRuleError(PASSKEY_REFUSED, 'credential');
      const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
      const passkey: Passkey = {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: response.response.transports ?? [],
        name: trimmed,
        createdAt: isoMillis(now()),
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
      };
      if (!(await passkeys.add(user.id, passkey))) throw new BusinessRuleError('This passkey is registered already', 'credential');
      return passkey;
    },

    /** The options of `navigator.credentials.get()` for `Sign in with a passkey`: no credential named (the authenticator offers its discoverable ones), user verification required. */
    async authenticationOptions(rp: RelyingParty, binding: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const options = await (await ceremonies()).generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: CHALLENGE_SECONDS * 1000 });
      await passkeys.saveChallenge(options.challenge, { purpose: 'authentication', binding, expiresAt: expiry() });
      return options;
    },

    /**
     * The passkey a sign-in's answer names: the credential of its user handle (the user id) and
     * id, registered to that user (else 401). Only its person could have made such an answer, so
     * a refusal after this is theirs (`verifyPasskeySignIn`).
     */
    async registeredPasskey(response: AuthenticationResponseJSON): Promise<{ userId: string; passkey: Passkey }> {
      const handle = response.response.userHandle;
      const userId = handle ? Buffer.from(handle, 'base64url').toString('utf8') : '';
      const passkey = userId && typeof response.id === 'string' ? await passkeys.find(userId, response.id) : undefined;
      if (!passkey) throw new NotAuthenticatedError(PASSKEY_REFUSED);
      return { userId, passkey };
    },

    /**
     * Signs in with a registered passkey (both factors, §16): the signature verified against its
     * public key, a challenge issued for a sign-in in this browser, the relying party, the origin
     * and user verification; its counter and last use recorded. Any failure is the same 401 as an
     * unknown passkey's, whichever check refused.
     */
    async verifyPasskeySignIn(response: AuthenticationResponseJSON, { userId, passkey }: { userId: string; passkey: Passkey }, rp: RelyingParty, binding: string): Promise<void> {
      let verified: VerifiedAuthenticationResponse;
      try {
        verified = await (await ceremonies()).verifyAuthenticationResponse({
          response,
          expectedChallenge: taking({ purpose: 'authentication', binding }),
          expectedOrigin: rp.origin,
          expectedRPID: rp.id,
          credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports as never },
          requireUserVerification: true,
        });
      } catch {
        throw new NotAuthenticatedError(PASSKEY_REFUSED);
      }
      if (!verified.verified) throw new NotAuthenticatedError(PASSKEY_REFUSED);
      await passkeys.recordUse(userId, passkey.credentialId, verified.authenticationInfo.newCounter, isoMillis(now()));
    },

    listPasskeys: (userId: string) => passkeys.list(userId),

    /** Removes one of the user's passkeys (404 for another user's or an unknown one). */
    /** `keepASecondFactor`: the person's organization requires one (`requiresSecondFactor`). */
    async removePasskey(userId: string, credentialId: string, keepASecondFactor: boolean): Promise<void> {
      if (!(await passkeys.remove(userId, credentialId, keepASecondFactor))) throw new NotFoundError('No such passkey');
    },
  };
}

export type PasskeyUseCases = ReturnType<typeof passkeyUseCases>;
