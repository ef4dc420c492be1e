import { createPasskeyStore } from '../db/passkey-store';
import { passkeyUseCases } from '../use-cases/passkeys';
import { once, processWiring, type Wiring } from './wiring';

/** Passkeys' use cases for a wiring of the caller's own (tests). */
export const passkeysFor = (wiring: Wiring) => passkeyUseCases({ passkeys: createPasskeyStore(wiring.db, wiring.tableName), now: wiring.now });

/** The functions that register, list, remove or sign in with passkeys. */
export const passkeyServices = /* @__PURE__ */ once(() => passkeysFor(processWiring()));
