import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { conditionalWrite, withConflictRetry } from './conditional';
import { idempotencyEntity } from './entities';
import * as keys from './keys';
import { KEY, TTL_ATTRIBUTE } from './table';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a claim stays `in_flight` without being completed: longer than any API function may
 * run (10 s), so only a request that crashed or timed out leaves it, and then its key is free
 * again instead of answering 409 for a day.
 */
export const IN_FLIGHT_LEASE_MS = 30_000;

export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
  /** Set-Cookie values (a dashboard form's refusal carries the form back to its page in one). */
  cookies?: string[];
  /** The answer's `secret`, sealed (its place in `body` holds a mark): an answer that shows a secret is kept without it in plain. */
  sealedSecret?: string;
}

/** What a claim of an idempotency key found. */
export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'in_flight'; fingerprint: string }
  /** The first request committed its change but never answered (killed by its timeout, say). */
  | { kind: 'carried_out'; fingerprint: string }
  | { kind: 'completed'; fingerprint: string; response: StoredResponse };

/**
 * Idempotency records: one item per API key and Idempotency-Key, claimed with a conditional
 * Put (so of twenty identical concurrent requests exactly one runs), completed with the
 * response, and expired after 24 hours (TTL; the claim also treats an expired record as free,
 * since TTL deletion lags). An `in_flight` claim older than its lease is free too, unless a
 * transaction of its request marked it `carriedOut` (shared/db/side-effects.ts). Each claim
 * carries an id of its own: when the SDK sends a claim again because its answer was lost after
 * it committed, the condition fails on the claim's own item, which is then still this claim.
 */
export function createIdempotencyStore(db: DynamoDBDocumentClient, tableName: string) {
  return {
    async claim(keyId: string, idempotencyKey: string, fingerprint: string, now = Date.now()): Promise<IdempotencyClaim> {
      const nowSeconds = Math.floor(now / 1000);
      const claimId = randomUUID();
      // The first request's transactions mark its record (carriedOut): a repeat arriving meanwhile waits for them to end.
      return withConflictRetry(() =>
        conditionalWrite<IdempotencyClaim>(
          async () => {
            await db.send(
              new PutCommand({
                TableName: tableName,
                Item: {
                  ...idempotencyEntity.item({ state: 'in_flight', leaseUntil: now + IN_FLIGHT_LEASE_MS, fingerprint, claimId }, { keyId, idempotencyKey }),
                  [TTL_ATTRIBUTE]: nowSeconds + IDEMPOTENCY_TTL_SECONDS,
                },
                ConditionExpression: 'attribute_not_exists(#pk) OR #ttl < :now OR (#state = :inFlight AND #lease < :nowMs AND attribute_not_exists(#carriedOut))',
                ExpressionAttributeNames: { '#pk': KEY.pk, '#ttl': TTL_ATTRIBUTE, '#state': 'state', '#lease': 'leaseUntil', '#carriedOut': 'carriedOut' },
                ExpressionAttributeValues: { ':now': nowSeconds, ':inFlight': 'in_flight', ':nowMs': now },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              }),
            );
            return { kind: 'claimed' };
          },
          (old): IdempotencyClaim => {
            if (old?.claimId === claimId) return { kind: 'claimed' };
            const fingerprint = String(old?.fingerprint ?? '');
            if (old?.state === 'completed') return { kind: 'completed', fingerprint, response: old.response as StoredResponse };
            const leaseOver = Number(old?.leaseUntil) < now;
            return old?.carriedOut === true && leaseOver ? { kind: 'carried_out', fingerprint } : { kind: 'in_flight', fingerprint };
          },
        ),
      );
    },

    /** Where a request's transactions mark this key carried out. */
    carriedOutMark: (keyId: string, idempotencyKey: string) => ({ tableName, key: keys.idempotency(keyId, idempotencyKey) }),

    async complete(keyId: string, idempotencyKey: string, response: StoredResponse): Promise<void> {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.idempotency(keyId, idempotencyKey),
          UpdateExpression: 'SET #state = :completed, #response = :response',
          ExpressionAttributeNames: { '#state': 'state', '#response': 'response' },
          ExpressionAttributeValues: { ':completed': 'completed', ':response': response },
        }),
      );
    },

    /** Frees the key after a failure worth retrying (5xx), so the client's retry runs again. */
    async release(keyId: string, idempotencyKey: string): Promise<void> {
      await db.send(new DeleteCommand({ TableName: tableName, Key: keys.idempotency(keyId, idempotencyKey) }));
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
