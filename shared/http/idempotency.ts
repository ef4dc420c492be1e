import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { IdempotencyClaim, IdempotencyStore, StoredResponse } from '../db/idempotency-store';
import { logger } from '../observability/logger';
import { BusinessRuleError, ConflictError, InvalidRequestError, OutrunError } from '../errors';
import { METRIC } from '../observability/catalog';
import { countMetric } from '../observability/metrics';
import { runWatchingWrites } from '../db/side-effects';
import { toErrorResponse } from './error-envelope';
import { IdempotencyHeaders, REPLAYED_HEADER } from './idempotency-headers';
import type { SealingContext, SecretSealer } from '../domain/sealing';

const idempotencyKeySchema = IdempotencyHeaders.shape['Idempotency-Key'];

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** What a repeat learns when the first request failed after its side effect (409). */
export class CarriedOutError extends ConflictError {
  constructor() {
    super('A request with this Idempotency-Key was carried out but failed before it could answer; it will not run again. Retrieve or list the resource to see its result.');
  }
}

type Result = APIGatewayProxyStructuredResultV2;

export interface OnceOptions {
  /**
   * The answer of a refused request (a 4xx, or `CarriedOutError`), which replays keep: the API's
   * error envelope unless given (a dashboard form goes back to its page instead).
   */
  refusal?: (error: unknown) => Result;
  /**
   * Until then (epoch ms), a repeat of a request that still runs waits for its answer instead of
   * a 409 at once: a person's second click gets what the first click got.
   */
  awaitFirstUntil?: number;
  /**
   * The answer shows a secret in its `secret` (a webhook endpoint's creation and roll): it is
   * kept sealed with this sealer, for the API key and Idempotency-Key, and opened for a replay,
   * so that no stored item holds it in plain (docs/decisions.md 97).
   */
  secretSealer?: SecretSealer;
}

/** What stands in a kept answer's body for its sealed `secret`. */
const SEALED_MARK = 'sealed';

const answerContext = (keyId: string, idempotencyKey: string): SealingContext => ({ purpose: 'idempotent_answer', api_key_id: keyId, idempotency_key: idempotencyKey });

/** A kept answer with its `secret` sealed; an answer without one (a refusal) as it is. */
async function withSecretSealed(response: StoredResponse, sealer: SecretSealer, context: SealingContext): Promise<StoredResponse> {
  const answer = JSON.parse(response.body || 'null') as { secret?: unknown } | null;
  if (typeof answer?.secret !== 'string') return response;
  return { ...response, body: JSON.stringify({ ...answer, secret: SEALED_MARK }), sealedSecret: await sealer.seal(answer.secret, context) };
}

/** A kept answer as it was given: its sealed `secret` opened back into its place (the same bytes: the same keys in the same order). */
async function withSecretOpened(response: StoredResponse, sealer: SecretSealer, context: SealingContext): Promise<StoredResponse> {
  const { sealedSecret, ...kept } = response;
  if (sealedSecret === undefined) return response;
  return { ...kept, body: JSON.stringify({ ...(JSON.parse(kept.body) as object), secret: await sealer.open(sealedSecret, context) }) };
}

/** The API's error envelope as an answer. */
function envelopeAnswer(error: unknown, docsUrl: string): Result {
  const { status, envelope } = toErrorResponse(error, docsUrl);
  return { statusCode: status, headers: JSON_HEADERS, body: JSON.stringify(envelope) };
}

const replayed = (result: Result): Result => ({ ...result, headers: { ...result.headers, [REPLAYED_HEADER]: 'true' } });

function storedResponse(result: Result): StoredResponse {
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]));
  return { status: result.statusCode ?? 200, body: result.body ?? '', headers, ...(result.cookies?.length ? { cookies: result.cookies } : {}) };
}

/** Same method, path and body byte for byte: the same request. */
export function requestFingerprint(event: APIGatewayProxyEventV2): string {
  return createHash('sha256')
    .update(`${event.requestContext.http.method} ${event.rawPath}\n${event.body ?? ''}`)
    .digest('hex');
}

/** While the first request with the key still runs, claims again (which reads its state) with growing pauses, until `until`. */
async function awaitFirst(store: IdempotencyStore, keyId: string, idempotencyKey: string, fingerprint: string, claim: IdempotencyClaim, until: number) {
  for (let pause = 50; claim.kind === 'in_flight' && claim.fingerprint === fingerprint && Date.now() + pause < until; pause = Math.min(pause * 2, 800)) {
    await new Promise((resume) => setTimeout(resume, pause));
    claim = await store.claim(keyId, idempotencyKey, fingerprint);
  }
  return claim;
}

/**
 * Runs a POST at most once per API key and Idempotency-Key (24 hours):
 * 1. The first request claims the key and runs; its response (2xx or 4xx) is stored.
 * 2. A repeat with the same body gets the stored response with `Idempotent-Replayed: true`.
 * 3. A repeat with another body: 422. A repeat while the first still runs: 409, or with
 *    `awaitFirstUntil`, the first one's answer once it has one (else the 409 then).
 * 4. A 5xx (or 429) before anything was written releases the key, so the client's retry runs
 *    again; so does an `OutrunError`, whose writes a repeat may make again. A 5xx after a write keeps it: the side effect happened, so a repeat answers 409
 *    (replayed) saying so, never running the action again nor answering 500. A request killed
 *    after its commit (no code runs then) is known by the mark its transaction left on the
 *    claim: after the lease, a repeat gets the same 409 instead of a second run.
 * 5. Once the action has answered, its answer is kept whatever it takes (`keepAnswer`): the key
 *    is never freed after the side effect, and the client never gets a 500 for the bookkeeping.
 * Refusals (4xx, the 409 of step 4) are answered by `refusal`, the API's envelope by default.
 */
export async function runIdempotently(
  store: IdempotencyStore,
  keyId: string,
  idempotencyKey: string,
  event: APIGatewayProxyEventV2,
  docsUrl: string,
  execute: () => Promise<Result>,
  options: OnceOptions = {},
): Promise<Result> {
  if (!idempotencyKeySchema.safeParse(idempotencyKey).success) {
    throw new InvalidRequestError('Idempotency-Key must be 1 to 255 characters', 'Idempotency-Key');
  }
  const refusal = options.refusal ?? ((error: unknown) => envelopeAnswer(error, docsUrl));
  const fingerprint = requestFingerprint(event);
  let claim = await store.claim(keyId, idempotencyKey, fingerprint);
  if (options.awaitFirstUntil !== undefined) claim = await awaitFirst(store, keyId, idempotencyKey, fingerprint, claim, options.awaitFirstUntil);
  if (claim.kind !== 'claimed') {
    if (claim.fingerprint !== fingerprint) {
      throw new BusinessRuleError('This Idempotency-Key was already used with a different request', 'Idempotency-Key');
    }
    if (claim.kind === 'in_flight') throw new ConflictError('A request with this Idempotency-Key is still in progress');
    countMetric(METRIC.idempotentReplays);
    if (claim.kind === 'carried_out') return replayed(refusal(new CarriedOutError()));
    const kept = options.secretSealer ? await withSecretOpened(claim.response, options.secretSealer, answerContext(keyId, idempotencyKey)) : claim.response;
    const { status, headers, body, cookies } = kept;
    return replayed({ statusCode: status, headers, body, ...(cookies ? { cookies } : {}) });
  }
  let result: Result;
  const { outcome, wrote } = await runWatchingWrites(execute, store.carriedOutMark(keyId, idempotencyKey));
  if (outcome.status === 'fulfilled') result = outcome.value;
  else {
    const error = outcome.reason;
    const { status } = toErrorResponse(error, docsUrl);
    // A 429 or a 5xx before any write is transient: the client's retry with the same key runs again.
    if (status === 429 || (status >= 500 && (!wrote || error instanceof OutrunError))) {
      await store.release(keyId, idempotencyKey);
      throw error;
    }
    if (status >= 500) {
      await keepAnswer(store, keyId, idempotencyKey, storedResponse(refusal(new CarriedOutError())));
      throw error;
    }
    result = refusal(error);
  }
  const answer = storedResponse(result);
  await keepAnswer(store, keyId, idempotencyKey, options.secretSealer ? await withSecretSealed(answer, options.secretSealer, answerContext(keyId, idempotencyKey)) : answer);
  return result;
}

/**
 * Stores the answer; when it cannot be stored as it is (an item over DynamoDB's 400 KB), stores
 * its status with a short body that says so, so that a replay still never runs the action again.
 * When nothing can be stored (the table unreachable right after the action), the caller still
 * gets the action's answer; the claim's lease then frees the key (decisions 16).
 */
async function keepAnswer(store: IdempotencyStore, keyId: string, idempotencyKey: string, response: StoredResponse): Promise<void> {
  try {
    await store.complete(keyId, idempotencyKey, response);
    return;
  } catch (error) {
    logger.warn('idempotent answer not stored as it is', { error: (error as Error).name, status: response.status });
  }
  try {
    await store.complete(keyId, idempotencyKey, {
      status: response.status,
      headers: JSON_HEADERS,
      body: JSON.stringify({ detail: 'The request was carried out; its answer was too large to keep for replays. Retrieve the resource instead.' }),
    });
  } catch (error) {
    logger.error('idempotent answer not stored', { error: (error as Error).name, status: response.status });
  }
}
