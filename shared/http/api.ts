import type * as z from '../zod';
import type { Principal } from '../auth/principal';
import { ANY_KEY, type ApiOperation, type Auth } from '../api/operation';
import { NotFoundError } from '../errors';
import { authenticator } from '../services/auth';
import type { ApiEvent, ApiResponse } from './response';
import { operationHandler, type ApiRequest, type RunOnce } from './operation-handler';

/** The caller's key, with the operation's scope; a key of the other mode finds no such route (404). */
async function authenticate(event: ApiEvent, auth: Exclude<Auth, 'public'>): Promise<Principal> {
  const principal = await authenticator().authenticate(event.headers?.authorization, auth.scope === ANY_KEY ? undefined : auth.scope);
  if (auth.mode && principal.mode !== auth.mode) throw new NotFoundError(auth.mode === 'test' ? 'No such route' : undefined);
  return principal;
}

/** The handler of an operation that takes an API key (shared/http/operation-handler.ts); a POST's is `idempotentApiHandler`. */
export function apiHandler<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType>(
  operation: ApiOperation<P, Q, B>,
  run: (request: ApiRequest<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<ApiResponse>,
  runOnce?: RunOnce,
) {
  return operationHandler(operation, run, { authenticate, runOnce });
}
