import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Flags of the authenticator data (WebAuthn §6.1): user present, user verified, backup eligible and state, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

interface Credential {
  id: Buffer;
  rpId: string;
  userHandle: string;
  key: KeyObject;
  counter: number;
}

/**
 * A software authenticator for HTTP tests of the WebAuthn ceremonies without a browser: it makes
 * discoverable ES256 credentials (attestation `none`) and signs assertions as a platform
 * authenticator does, with user verification unless told otherwise. The browser tests use
 * Chromium's virtual authenticator instead.
 */
export function softAuthenticator(options: { userVerified?: boolean } = {}) {
  const credentials: Credential[] = [];
  const flagsOf = (extra: number) => UP | BE | BS | extra | (options.userVerified === false ? 0 : UV);
  const clientData = (type: string, challenge: string, origin: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    credentials,
    /** `navigator.credentials.create()` on `origin`, with the options the service gave. */
    create(creation: PublicKeyCredentialCreationOptionsJSON, origin: string): RegistrationResponseJSON {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = isoCBOR.encode(new Map<number, number | Uint8Array>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
      const id = randomBytes(32);
      const rpId = creation.rp.id!;
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flagsOf(AT)]), Buffer.alloc(4), Buffer.alloc(16), Buffer.from([0, id.length]), id, Buffer.from(cose)]);
      const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
      credentials.push({ id, rpId, userHandle: creation.user.id, key: privateKey, counter: 0 });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        response: { clientDataJSON: b64url(clientData('webauthn.create', creation.challenge, origin)), attestationObject: b64url(attestationObject), transports: ['internal'] },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    /** `navigator.credentials.get()` on `origin`: an assertion by the first (or the given) credential of the relying party. */
    get(request: PublicKeyCredentialRequestOptionsJSON, origin: string, credential = credentials.find((candidate) => candidate.rpId === request.rpId)): AuthenticationResponseJSON {
      if (!credential) throw new Error(`No credential for ${request.rpId}`);
      credential.counter += 1;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(credential.counter);
      const authenticatorData = Buffer.concat([sha256(credential.rpId), Buffer.from([flagsOf(0)]), counter]);
      const clientDataJSON = clientData('webauthn.get', request.challenge, origin);
      const signature = createSign('sha256').update(Buffer.concat([authenticatorData, sha256(clientDataJSON)])).sign(credential.key);
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: 'public-key',
        response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authenticatorData), signature: b64url(signature), userHandle: credential.userHandle },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
