import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { requestAudit } from './audit-trail';

/** The commands that change the table (what commits a side effect). */
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/** The idempotency record a request's transactions mark as carried out (its table and key). */
export interface CarriedOutMark {
  tableName: string;
  key: Record<string, string>;
}

const watched = new AsyncLocalStorage<{ wrote: boolean; mark?: CarriedOutMark }>();

/**
 * Runs `action` and tells whether it may have changed the table, whatever it returns or throws:
 * a failure after a write is not a failure to retry (idempotency keeps its key). A write counts
 * once it is sent, since a timeout or a lost answer can follow a commit, unless DynamoDB refused
 * it outright (a conflict that outlasted its retries frees the key). Sees the writes of
 * clients that `watchWrites` was applied to, made within `action`.
 */
export async function runWatchingWrites<T>(action: () => Promise<T>, mark?: CarriedOutMark): Promise<{ outcome: PromiseSettledResult<T>; wrote: boolean }> {
  const state = { wrote: false, mark };
  const [outcome] = await watched.run(state, () => Promise.allSettled([action()]));
  return { outcome, wrote: state.wrote };
}

/**
 * DynamoDB refused the write outright: a 4xx (a failed condition, a cancelled transaction, a
 * conflict, a throttle, a validation error) is an answer that nothing was applied. A timeout, a
 * lost connection or a 5xx is no such answer: the write may have committed.
 */
const refusedOutright = (error: unknown) => {
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  return status !== undefined && status >= 400 && status < 500;
};

export function watchWrites(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const state = watched.getStore();
      const audit = requestAudit();
      if ((!state && !audit) || !WRITES.has(String(context.commandName))) return next(args);
      try {
        const result = await next(args);
        if (state) state.wrote = true;
        if (audit && context.commandName !== 'TransactWriteItemsCommand') audit.singleWrites++;
        return result;
      } catch (error) {
        if (state && !refusedOutright(error)) state.wrote = true;
        throw error;
      }
    },
    { step: 'initialize', name: 'watchWrites' },
  );
}

type TransactActions = NonNullable<TransactWriteCommandInput['TransactItems']>;

/**
 * Whether a transaction sent now would carry more than its actions: the idempotent request's
 * carried-out mark, or the request's audit record, not written yet (`transactWrite`). A one-item
 * write that carries neither needs no transaction.
 */
export function transactionCarriesMore(): boolean {
  const audit = requestAudit();
  return watched.getStore()?.mark !== undefined || (audit !== undefined && !audit.written);
}

/**
 * Sends a TransactWriteItems: every transaction of the service goes through here. Inside an
 * audited request (shared/db/audit-trail.ts) the request's audit record rides the first
 * transaction that carries its change, after the actions. Inside an idempotent request it also
 * marks the request's record `carriedOut`, in the same transaction: a function killed after the
 * commit (its timeout) leaves the claim in flight, and a retry after its lease must learn that
 * the change was made instead of making it again. Both go after the actions, so the actions'
 * cancellation reasons keep their places. A record whose transaction DynamoDB refused outright
 * (a conflict, a condition) waits for the retry; one whose answer was lost counts as written.
 *
 * `write` names the logical write this transaction is an attempt of (`transactRetried`,
 * shared/db/conditional.ts): an attempt that sends the same request again carries the same
 * ClientRequestToken, so that DynamoDB answers it as a success without applying it twice when an
 * earlier attempt committed and its answer was lost (docs/decisions.md 88).
 */
export async function transactWrite(db: DynamoDBDocumentClient, actions: TransactActions, write?: string) {
  const mark = watched.getStore()?.mark;
  const audit = requestAudit()?.take(actions);
  const marked: TransactActions = [
    ...actions,
    ...(audit?.items ?? []),
    ...(mark
      ? [
          {
            Update: {
              TableName: mark.tableName,
              Key: mark.key,
              UpdateExpression: 'SET #carriedOut = :true',
              ExpressionAttributeNames: { '#carriedOut': 'carriedOut' },
              ExpressionAttributeValues: { ':true': true },
            },
          },
        ]
      : []),
  ];
  try {
    const result = await db.send(new TransactWriteCommand({ TransactItems: marked, ...(write ? { ClientRequestToken: clientRequestToken(write, marked) } : {}) }));
    audit?.settled(true);
    return result;
  } catch (error) {
    audit?.settled(!refusedOutright(error));
    throw error;
  }
}

/**
 * The ClientRequestToken of an attempt of logical write `write`: the same for the same request,
 * another for a request that changed (DynamoDB refuses a token reused with other parameters,
 * IdempotentParameterMismatch). At most 36 characters, as DynamoDB allows.
 */
function clientRequestToken(write: string, items: TransactActions): string {
  const request = JSON.stringify(items, (_key, value: unknown) => (value instanceof Set ? [...value] : value));
  return createHash('sha256').update(write).update('\0').update(request).digest('base64url').slice(0, 36);
}
