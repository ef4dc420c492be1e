import * as z from '../zod';

/*
 * The Idempotency-Key headers as declared to clients: what the runtime (shared/http/idempotency.ts)
 * and the OpenAPI reference share, apart from the runtime's table adapters.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The request header every POST accepts (documented in the OpenAPI reference). */
export const IdempotencyHeaders = /* @__PURE__ */ (() =>
  z.object({
    'Idempotency-Key': z.withMeta(z.optional(z.string().check(z.minLength(1), z.maxLength(255))), {
      description:
        'Makes the POST safe to retry: the first answer (status and body) is stored for 24 hours and replayed, with `Idempotent-Replayed: true`, ' +
        'for the same key, API key and body. The same key with another body: 422; while the first request still runs: 409; ' +
        'after a first request that failed once its change was written: 409 (replayed), and it never runs again.',
    }),
  }))();

/** Response header of a replayed answer. */
export const ReplayedHeaders = /* @__PURE__ */ (() =>
  z.object({
    'Idempotent-Replayed': z.withMeta(z.optional(z.literal('true')), { description: 'Present on an answer replayed for a repeated Idempotency-Key.' }),
  }))();
