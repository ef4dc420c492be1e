import type * as z from '../zod';
import type { Principal } from '../auth/principal';
import type { SecretSealer } from '../domain/sealing';
import { ANY_KEY, type ApiOperation, type Auth } from '../api/operation';
import { NotFoundError } from '../errors';
import { authenticator, idempotencyStore } from '../services/auth';
import { auditCallerOf, audited } from './audit';
import { IDEMPOTENCY_HEADER } from './idempotency-headers';
import { runIdempotently } from './idempotency';
import { urlsFor, type ApiEvent, type ApiResponse } from './response';
import { operationHandler, type ApiRequest, type RunAudited, type RunOnce } from './operation-handler';

/** The caller's key, with the operation's scope; a key of the other mode finds no such route (404). */
async function authenticate(event: ApiEvent, auth: Exclude<Auth, 'public'>): Promise<Principal> {
  const principal = await authenticator().authenticate(event.headers?.authorization, auth.scope === ANY_KEY ? undefined : auth.scope);
  if (auth.mode && principal.mode !== auth.mode) throw new NotFoundError(auth.mode === 'test' ? 'No such route' : undefined);
  return principal;
}

/**
 * With an Idempotency-Key, at most once per API key and key (shared/http/idempotency.ts); without
 * one, as it comes. An answer that shows a secret is kept with it sealed by `secretSealer`.
 */
const runOnceSealing =
  (secretSealer?: SecretSealer): RunOnce =>
  (principal, event, execute) => {
    const key = event.headers?.[IDEMPOTENCY_HEADER];
    if (!principal || key === undefined) return execute();
    return runIdempotently(idempotencyStore(), principal.actor.id, key, event, urlsFor(event).docs, execute, secretSealer ? { secretSealer } : {});
  };

/** A writing operation's use case, with the record its declaration names (shared/http/audit.ts). */
const runAudited: RunAudited = (operation, event, principal, work) => audited(operation.audit, auditCallerOf(event, principal), work);

/**
 * The handler of an operation that takes an API key (shared/http/operation-handler.ts): the key
 * checked against the operation's scope and mode, for a POST its Idempotency-Key, and for a
 * writing operation its audit record, as the declaration says. An operation whose answer shows
 * the secret it sealed (its declaration names `sealedSecrets`' `seal`) is given the sealer that
 * keeps that answer sealed for replays; its handler passes it, so that no other bundle carries one.
 */
export function apiHandler<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType>(
  operation: ApiOperation<P, Q, B>,
  run: (request: ApiRequest<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<ApiResponse>,
  answerSealer?: SecretSealer,
) {
  if (operation.sealedSecrets?.includes('seal') && !answerSealer) throw new Error(`${operation.method} ${operation.path} shows the secret it seals: its handler gives apiHandler the sealer its kept answers are sealed with`);
  return operationHandler(operation, run, { authenticate, runOnce: operation.method === 'POST' ? runOnceSealing(answerSealer) : undefined, runAudited });
}
