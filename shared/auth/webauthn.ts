/**
 * The WebAuthn ceremonies of @simplewebauthn/server the passkeys use (shared/use-cases/passkeys.ts),
 * bundled apart (`webauthn.mjs`, lib/function-bundles.ts): its init is the largest of any
 * dependency, and most functions that touch passkeys only list or remove them (decisions 139).
 */
export { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
