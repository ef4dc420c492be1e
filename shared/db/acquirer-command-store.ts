import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ModificationReceipt } from '../domain/acquirer';
import type { AcquirerCommand, AcquirerOperation } from '../domain/acquirer-commands';
import { cancellationReasons, transactRetried, withConflictRetry } from './conditional';
import { TTL_ATTRIBUTE } from './table';
import { dueAt } from './due';
import { acquirerCommandEntity } from './entities';
import * as keys from './keys';
import type { TransactAction } from './outbox';
import { IF_EXISTS, stripKeys } from './entity';

/** Kept at most this long once sent, in case its notification never comes (Adyen retries one for 30 days). */
const SENT_KEPT_DAYS = 60;

/** The captures and cancels owed to the acquirer (shared/domain/acquirer-commands.ts). */
export function createAcquirerCommandStore(db: DynamoDBDocumentClient, tableName: string) {
  const item = (command: AcquirerCommand) => acquirerCommandEntity.item(command);
  const putAction = (command: AcquirerCommand): TransactAction => ({ Put: { TableName: tableName, Item: item(command) } });
  /** The acquirer took it (or reported its outcome): nothing is owed any more. */
  const doneAction = (reference: string, operation: AcquirerOperation) => ({ Delete: { TableName: tableName, Key: keys.acquirerCommand(reference, operation) } }) satisfies TransactAction;
  return {
    /** The command, due now, for the transaction of the change that calls for it. */
    putAction,

    /** The command of an authorisation not settled yet (due, sent or parked), if any. */
    async get(reference: string, operation: AcquirerOperation): Promise<AcquirerCommand | undefined> {
      const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.acquirerCommand(reference, operation), ConsistentRead: true }));
      return stripKeys<AcquirerCommand>(result.Item);
    },

    /** Writes the command with `also` (the notification's processed mark) in one transaction. */
    async put(command: AcquirerCommand, also: TransactAction[] = []): Promise<void> {
      await transactRetried(db, [putAction(command), ...also]);
    },

    /** The acquirer reported the outcome: nothing is owed any more, with `also` (the notification's processed mark). */
    async settled(reference: string, operation: AcquirerOperation, also: TransactAction[] = []): Promise<void> {
      await transactRetried(db, [doneAction(reference, operation), ...also]);
    },

    doneAction,

    /**
     * The acquirer took it: `sent`, out of the due index, kept until its notification settles it
     * (or 60 days). A capture's reference, from the acquirer's answer, is kept on its payment
     * (`capture.acquirer_reference`) unless a notification about the capture named one first.
     * A command its notification settled already is left settled.
     */
    async done(command: AcquirerCommand, receipt: ModificationReceipt): Promise<void> {
      const expires = Math.floor(Date.parse(command.createdAt) / 1000) + SENT_KEPT_DAYS * 86_400;
      const sent = { Put: { TableName: tableName, Item: { ...item({ ...command, status: 'sent' }), [TTL_ATTRIBUTE]: expires }, ...IF_EXISTS } };
      const captureReference = {
        Update: {
          TableName: tableName,
          Key: keys.payment(command.authorisation.paymentId),
          UpdateExpression: 'SET #acquirer.#reference = if_not_exists(#acquirer.#reference, :reference)',
          ExpressionAttributeNames: { '#acquirer': 'acquirer', '#reference': 'captureReference' },
          ExpressionAttributeValues: { ':reference': receipt.acquirerReference },
        },
      };
      try {
        await transactRetried(db, command.operation === 'capture' ? [sent, captureReference] : [sent]);
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code !== 'ConditionalCheckFailed') throw error;
      }
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
