import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { IdempotencyStore, StoredResponse } from '../db/idempotency-store';
import { logger } from '../observability/logger';
import { BusinessRuleError, ConflictError, InvalidRequestError } from '../errors';
import { METRIC } from '../observability/catalog';
import { countMetric } from '../observability/metrics';
import { runWatchingWrites } from '../db/side-effects';
import { toErrorResponse } from './error-envelope';
import { IdempotencyHeaders, REPLAYED_HEADER } from './idempotency-headers';

const idempotencyKeySchema = IdempotencyHeaders.shape['Idempotency-Key'];

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** What a repeat learns when the first request failed after its side effect. */
const CARRIED_OUT =
  'A request with this Idempotency-Key was carried out but failed before it could answer; it will not run again. Retrieve or list the resource to see its result.';

/** The replayed 409 of a request that made its change but could not answer. */
function carriedOutAnswer(docsUrl: string) {
  const { status, envelope } = toErrorResponse(new ConflictError(CARRIED_OUT), docsUrl);
  return { statusCode: status, headers: { ...JSON_HEADERS, [REPLAYED_HEADER]: 'true' }, body: JSON.stringify(envelope) };
}

/** Same method, path and body byte for byte: the same request. */
export function requestFingerprint(event: APIGatewayProxyEventV2): string {
  return createHash('sha256')
    .update(`${event.requestContext.http.method} ${event.rawPath}\n${event.body ?? ''}`)
    .digest('hex');
}

/**
 * Runs a POST at most once per API key and Idempotency-Key (24 hours):
 * 1. The first request claims the key and runs; its response (2xx or 4xx) is stored.
 * 2. A repeat with the same body gets the stored response with `Idempotent-Replayed: true`.
 * 3. A repeat with another body: 422. A repeat while the first still runs: 409.
 * 4. A 5xx (or 429) before anything was written releases the key, so the client's retry runs
 *    again. A 5xx after a write keeps it: the side effect happened, so a repeat answers 409
 *    (replayed) saying so, never running the action again nor answering 500. A request killed
 *    after its commit (no code runs then) is known by the mark its transaction left on the
 *    claim: after the lease, a repeat gets the same 409 instead of a second run.
 * 5. Once the action has answered, its answer is kept whatever it takes (`keepAnswer`): the key
 *    is never freed after the side effect, and the client never gets a 500 for the bookkeeping.
 */
export async function runIdempotently(
  store: IdempotencyStore,
  keyId: string,
  idempotencyKey: string,
  event: APIGatewayProxyEventV2,
  docsUrl: string,
  execute: () => Promise<APIGatewayProxyStructuredResultV2>,
): Promise<APIGatewayProxyStructuredResultV2> {
  if (!idempotencyKeySchema.safeParse(idempotencyKey).success) {
    throw new InvalidRequestError('Idempotency-Key must be 1 to 255 characters', 'Idempotency-Key');
  }
  const fingerprint = requestFingerprint(event);
  const claim = await store.claim(keyId, idempotencyKey, fingerprint);
  if (claim.kind !== 'claimed') {
    if (claim.fingerprint !== fingerprint) {
      throw new BusinessRuleError('This Idempotency-Key was already used with a different request', 'Idempotency-Key');
    }
    if (claim.kind === 'in_flight') throw new ConflictError('A request with this Idempotency-Key is still in progress');
    if (claim.kind === 'carried_out') {
      countMetric(METRIC.idempotentReplays);
      return carriedOutAnswer(docsUrl);
    }
    countMetric(METRIC.idempotentReplays);
    return {
      statusCode: claim.response.status,
      headers: { ...claim.response.headers, [REPLAYED_HEADER]: 'true' },
      body: claim.response.body,
    };
  }
  let result: APIGatewayProxyStructuredResultV2;
  const { outcome, wrote } = await runWatchingWrites(execute, store.carriedOutMark(keyId, idempotencyKey));
  if (outcome.status === 'fulfilled') result = outcome.value;
  else {
    const error = outcome.reason;
    const { status, envelope } = toErrorResponse(error, docsUrl);
    // A 429 or a 5xx before any write is transient: the client's retry with the same key runs again.
    if (status === 429 || (status >= 500 && !wrote)) {
      await store.release(keyId, idempotencyKey);
      throw error;
    }
    if (status >= 500) {
      const { statusCode, body } = carriedOutAnswer(docsUrl);
      await keepAnswer(store, keyId, idempotencyKey, { status: statusCode, headers: JSON_HEADERS, body });
      throw error;
    }
    result = { statusCode: status, headers: JSON_HEADERS, body: JSON.stringify(envelope) };
  }
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]));
  await keepAnswer(store, keyId, idempotencyKey, { status: result.statusCode ?? 200, body: result.body ?? '', headers });
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
