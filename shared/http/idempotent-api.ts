import type * as z from '../zod';
import type { ApiOperation } from '../api/operation';
import { idempotencyStore } from '../services/auth';
import { apiHandler } from './api';
import type { ApiRequest, RunOnce } from './operation-handler';
import { IDEMPOTENCY_HEADER } from './idempotency-headers';
import { runIdempotently } from './idempotency';
import { urlsFor, type ApiResponse } from './response';

/** With an Idempotency-Key, at most once per API key and key (shared/http/idempotency.ts); without one, as it comes. */
const runOnce: RunOnce = (principal, event, execute) => {
  const key = event.headers?.[IDEMPOTENCY_HEADER];
  if (!principal || key === undefined) return execute();
  return runIdempotently(idempotencyStore(), principal.keyId, key, event, urlsFor(event).docs, execute);
};

/** `apiHandler` for a POST operation: the same, plus the Idempotency-Key every POST takes. */
export function idempotentApiHandler<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType>(
  operation: ApiOperation<P, Q, B>,
  run: (request: ApiRequest<z.infer<P>, z.infer<Q>, z.infer<B>>) => Promise<ApiResponse>,
) {
  return apiHandler(operation, run, runOnce);
}

