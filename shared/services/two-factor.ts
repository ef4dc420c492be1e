import { createTwoFactorStore } from '../db/two-factor-store';
import { twoFactorUseCases } from '../use-cases/two-factor';
import { secretSealer } from './sealing';
import { once, processWiring, type Wiring } from './wiring';

/** Two-factor's use cases for a wiring of the caller's own (tests, ops). */
export const twoFactorFor = (wiring: Wiring, sealer = secretSealer()) => twoFactorUseCases({ twoFactor: createTwoFactorStore(wiring.db, wiring.tableName), sealer, now: wiring.now });

/** The functions that enrol, check or turn off a second factor (their routes declare `sealedSecrets`). */
export const twoFactorServices = /* @__PURE__ */ once(() => twoFactorFor(processWiring()));
