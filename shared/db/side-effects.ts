import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AsyncLocalStorage } from 'node:async_hooks';

/** The commands that change the table (what commits a side effect). */
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

const watched = new AsyncLocalStorage<{ wrote: boolean }>();

/**
 * Runs `action` and tells whether it may have changed the table, whatever it returns or throws:
 * a failure after a write is not a failure to retry (idempotency keeps its key). A write counts
 * once it is sent, since a timeout or a lost answer can follow a commit. Sees the writes of
 * clients that `watchWrites` was applied to, made within `action`.
 */
export async function runWatchingWrites<T>(action: () => Promise<T>): Promise<{ outcome: PromiseSettledResult<T>; wrote: boolean }> {
  const state = { wrote: false };
  const [outcome] = await watched.run(state, () => Promise.allSettled([action()]));
  return { outcome, wrote: state.wrote };
}

export function watchWrites(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const state = watched.getStore();
      if (state && WRITES.has(String(context.commandName))) state.wrote = true;
      return next(args);
    },
    { step: 'initialize', name: 'watchWrites' },
  );
}
