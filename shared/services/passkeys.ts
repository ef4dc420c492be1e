import { createPasskeyStore } from '../db/passkey-store';
import { passkeyUseCases, type WebAuthnCeremonies } from '../use-cases/passkeys';
import { once, onceAsync, processWiring, type Wiring } from './wiring';

/**
 * The ceremonies, loaded on first need: in a bundle the file `webauthn.mjs` beside it
 * (lib/function-bundles.ts), in source mode the module itself (decisions 139).
 */
export const webauthnCeremonies = /* @__PURE__ */ onceAsync(
  async (): Promise<WebAuthnCeremonies> => (typeof BUNDLED_APART !== 'undefined' ? await import(require.resolve('./webauthn.mjs')) : await import('../auth/webauthn')),
);

/** Passkeys' use cases for a wiring of the caller's own (tests). */
export const passkeysFor = (wiring: Wiring) =>
  passkeyUseCases({ passkeys: createPasskeyStore(wiring.db, wiring.tableName), ceremonies: webauthnCeremonies, now: wiring.now });

/** The functions that register, list, remove or sign in with passkeys. */
export const passkeyServices = /* @__PURE__ */ once(() => passkeysFor(processWiring()));
