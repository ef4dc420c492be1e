import { Authenticator } from '../auth/authenticate';
import { createKeyStore } from '../db/directory-lookups';
import { createIdempotencyStore } from '../db/idempotency-store';
import { once, processWiring } from './wiring';

/** The process's authenticator: its key cache lives as long as the environment. */
export const authenticator = /* @__PURE__ */ once(() => new Authenticator(createKeyStore(processWiring().db, processWiring().tableName)));

/** Where a POST's Idempotency-Keys are kept (shared/http/idempotency.ts). */
export const idempotencyStore = /* @__PURE__ */ once(() => createIdempotencyStore(processWiring().db, processWiring().tableName));
