import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AcquirerCommand, AcquirerOperation } from '../domain/acquirer-commands';
import { withConflictRetry } from './conditional';
import { dueAt } from './due';
import { acquirerCommandEntity } from './entities';
import * as keys from './keys';
import type { TransactAction } from './outbox';
import { transactWrite } from './side-effects';
import { IF_EXISTS } from './entity';

/** The captures and cancels owed to the acquirer (shared/domain/acquirer-commands.ts). */
export function createAcquirerCommandStore(db: DynamoDBDocumentClient, tableName: string) {
  const item = (command: AcquirerCommand) => acquirerCommandEntity.item(command);
  const putAction = (command: AcquirerCommand): TransactAction => ({ Put: { TableName: tableName, Item: item(command) } });
  /** The acquirer took it (or reported its outcome): nothing is owed any more. */
  const doneAction = (reference: string, operation: AcquirerOperation): TransactAction => ({ Delete: { TableName: tableName, Key: keys.acquirerCommand(reference, operation) } });
  return {
    /** The command, due now, for the transaction of the change that calls for it. */
    putAction,

    /** Writes the command with `also` (the notification's processed mark) in one transaction. */
    async put(command: AcquirerCommand, also: TransactAction[] = []): Promise<void> {
      await withConflictRetry(() => transactWrite(db, [putAction(command), ...also]));
    },

    /** The acquirer reported the outcome: nothing is owed any more, with `also` (the notification's processed mark). */
    async settled(reference: string, operation: AcquirerOperation, also: TransactAction[] = []): Promise<void> {
      await withConflictRetry(() => transactWrite(db, [doneAction(reference, operation), ...also]));
    },

    doneAction,

    async done(command: AcquirerCommand): Promise<void> {
      await withConflictRetry(() => db.send(new DeleteCommand({ TableName: tableName, Key: keys.acquirerCommand(command.authorisation.acquirerReference, command.operation) })));
    },

    /** After a failed call: due later, or parked. A command done meanwhile (its notification came) is not written back. */
    async reschedule(command: AcquirerCommand): Promise<void> {
      try {
        await withConflictRetry(() => db.send(new PutCommand({ TableName: tableName, Item: item(command), ...IF_EXISTS })));
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    },

    /** Commands due at `now`, oldest first, page by page (the sparse DUE index). */
    due: (now: Date) => dueAt<AcquirerCommand>(db, tableName, keys.acquirerCommandsDue, now),
  };
}

export type AcquirerCommandStore = ReturnType<typeof createAcquirerCommandStore>;
