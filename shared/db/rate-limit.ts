import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createHash, randomUUID } from 'node:crypto';
import type { AttemptRefusal, AttemptSlot, AttemptWindows } from '../domain/team';
import { conditionalWrite } from './conditional';
import { attemptWindowEntity, rateLimitEntity } from './entities';
import { IF_NEW } from './entity';
import { TTL_ATTRIBUTE } from './table';

/**
 * Fixed-window counters, one item per subject and window, taken with one conditional update:
 * concurrent callers across functions share the count, and the item expires with its window.
 */
export function createRateLimiter(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /** Takes one of `limit` of `subject`'s current window: undefined, or the seconds until the window ends. */
    async take(subject: string, limit: number, windowSeconds: number, nowMs = Date.now()): Promise<number | undefined> {
      const nowSeconds = Math.floor(nowMs / 1000);
      const window = Math.floor(nowSeconds / windowSeconds);
      const endsAt = (window + 1) * windowSeconds;
      return conditionalWrite<number | undefined>(
        async () => {
          await db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: rateLimitEntity.key({ subject, window }),
              UpdateExpression: 'ADD #count :one SET #entity = :entity, #ttl = :ttl',
              ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
              ExpressionAttributeNames: { '#count': 'count', '#entity': 'entity', '#ttl': TTL_ATTRIBUTE },
              ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':entity': rateLimitEntity.definition.name, ':ttl': endsAt + windowSeconds },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return undefined;
        },
        () => Math.max(1, endsAt - nowSeconds),
      );
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** An attempt window's item stays this long past its end (TTL), for whoever investigates a lockout. */
const ATTEMPT_WINDOW_KEPT_SECONDS = 60 * 60;

/**
 * Attempt windows (the sign-in lockouts of product-decisions §16), one item per subject: a
 * window opens at the subject's first attempt and lasts `windowSeconds`; `count` is its failures
 * plus the attempts being checked. An attempt takes a slot before its password is checked, with
 * one conditional UpdateItem (`count < limit`, the window still open), so concurrent attempts
 * across every function never check more than `limit` passwords; a success gives its slot back,
 * a failure keeps it, and the failure that fills the window moves its end a whole window on (the
 * lock lasts `windowSeconds` from that failure). An ended window is replaced by a fresh one
 * (a conditional PutItem: one of concurrent replacers wins, the others take a slot of its window).
 * An attempt the lock refuses is counted apart, in `refusals` (an UpdateItem of the same item:
 * the table grows by nothing however often a locked subject is tried), so that the caller
 * records only the first few (docs/decisions.md 134). Subjects are stored by their SHA-256, so
 * the table keys no email or address.
 */
export function createAttemptWindows(db: DynamoDBDocumentClient, tableName: string, now: () => number = Date.now): AttemptWindows {
  const keyOf = (subject: string) => attemptWindowEntity.key({ subject: createHash('sha256').update(subject).digest('hex') });
  const ttlOf = (endsAt: number) => Math.ceil(endsAt / 1000) + ATTEMPT_WINDOW_KEPT_SECONDS;

  /**
   * One conditional update of window `window` of `key`: the attributes it set. When a fresh window
   * replaced that one meanwhile the update is moot (its lock ended, nothing of it is left to give
   * back or count) and does nothing: undefined.
   */
  function updateWindow(
    key: Record<string, string>,
    window: unknown,
    update: { expression: string; condition?: string; names: Record<string, string>; values: Record<string, unknown> },
  ): Promise<Record<string, unknown> | undefined> {
    return conditionalWrite(
      async () => {
        const { Attributes } = await db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: key,
            UpdateExpression: update.expression,
            ConditionExpression: ['#window = :window', update.condition].filter(Boolean).join(' AND '),
            ExpressionAttributeNames: { '#window': 'window', ...update.names },
            ExpressionAttributeValues: { ':window': window, ...update.values },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return Attributes ?? {};
      },
      () => undefined,
    );
  }

  /** Counts a refusal of the lock of `window`: how many it has refused, this one included (0 when a fresh window replaced it meanwhile). */
  async function refused(key: Record<string, string>, window: unknown, retryAfterSeconds: number): Promise<AttemptRefusal> {
    const updated = await updateWindow(key, window, { expression: 'ADD #refusals :one', names: { '#refusals': 'refusals' }, values: { ':one': 1 } });
    return { retryAfterSeconds, refusals: typeof updated?.refusals === 'number' ? updated.refusals : 0 };
  }

  /** The slot an attempt took: `count` its place in the window `window` (a random id, which a lock's extension keeps). */
  function slot(key: Record<string, string>, window: string, count: number, limit: number, windowSeconds: number): AttemptSlot {
    return {
      async failed() {
        if (count < limit) return;
        const endsAt = now() + windowSeconds * 1000;
        await updateWindow(key, window, {
          expression: 'SET #endsAt = :endsAt, #ttl = :ttl',
          names: { '#endsAt': 'endsAt', '#ttl': TTL_ATTRIBUTE },
          values: { ':endsAt': endsAt, ':ttl': ttlOf(endsAt) },
        });
      },
      async succeeded() {
        await updateWindow(key, window, { expression: 'ADD #count :less', condition: '#count > :none', names: { '#count': 'count' }, values: { ':less': -1, ':none': 0 } });
      },
    };
  }

  return {
    async take(subject, limit, windowSeconds) {
      const key = keyOf(subject);
      // Two rounds at most: a window that ended is replaced once, by this attempt or a concurrent one.
      for (let round = 0; ; round++) {
        const at = now();
        const taken = await conditionalWrite<AttemptSlot | AttemptRefusal | undefined>(
          async () => {
            const { Attributes } = await db.send(
              new UpdateCommand({
                TableName: tableName,
                Key: key,
                UpdateExpression: 'ADD #count :one',
                ConditionExpression: '#endsAt > :now AND #count < :limit',
                ExpressionAttributeNames: { '#count': 'count', '#endsAt': 'endsAt' },
                ExpressionAttributeValues: { ':one': 1, ':now': at, ':limit': limit },
                ReturnValues: 'ALL_NEW',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              }),
            );
            return slot(key, Attributes!.window as string, Attributes!.count as number, limit, windowSeconds);
          },
          (old) => (old && typeof old.endsAt === 'number' && old.endsAt > at ? refused(key, old.window, Math.max(1, Math.ceil((old.endsAt - at) / 1000))) : undefined),
        );
        if (taken) return taken;
        const window = randomUUID();
        const endsAt = at + windowSeconds * 1000;
        const opened = await conditionalWrite(
          async () => {
            await db.send(
              new PutCommand({
                TableName: tableName,
                Item: { ...key, entity: attemptWindowEntity.definition.name, window, count: 1, endsAt, [TTL_ATTRIBUTE]: ttlOf(endsAt) },
                ConditionExpression: `${IF_NEW.ConditionExpression} OR #endsAt <= :now`,
                ExpressionAttributeNames: { ...IF_NEW.ExpressionAttributeNames, '#endsAt': 'endsAt' },
                ExpressionAttributeValues: { ':now': at },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              }),
            );
            return true;
          },
          () => false,
        );
        if (opened) return slot(key, window, 1, limit, windowSeconds);
        if (round > 0) throw new Error('An attempt window was replaced twice while one attempt took a slot');
      }
    },
  };
}
