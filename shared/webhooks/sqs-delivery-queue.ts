import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { AWS_LIMITS } from '../aws-limits';
import { deadLetterOf, tenantOf, type DeadLetters, type DeliveryTask } from '../domain/webhook-delivery';
import { isoMillis } from '../time';
import { sendInBatches, type BatchRetryOptions } from './retry-batches';

/** The longest a received message may stay invisible (12 hours from its receive); kept a minute short of it. */
export const MAX_VISIBILITY_SECONDS = AWS_LIMITS.sqs.maxVisibilityTimeoutSeconds - 60;

/**
 * How many receives a delivery message takes when nothing fails: one when SQS can delay it the
 * whole way (15 minutes), plus one per visibility extension an early receive asks for. Each
 * counts towards the queue's redrive count, so the queue must allow more than this.
 */
export function receivesToAttempt(delayMs: number): number {
  const beyondDelaySeconds = Math.max(0, Math.ceil(delayMs / 1000) - AWS_LIMITS.sqs.maxDelaySeconds);
  return 1 + Math.ceil(beyondDelaySeconds / MAX_VISIBILITY_SECONDS);
}

/** A delivery task as a queue message: `notBefore` when its delay is longer than SQS can delay. */
export interface QueuedTask extends DeliveryTask {
  notBefore?: string;
}

/**
 * The webhook queue in AWS. A delay of up to 15 minutes is SQS's own DelaySeconds; a longer one
 * is sent with the maximum delay and `notBefore`, and when the message arrives early the
 * consumer hides it again (ChangeMessageVisibility, at most 12 hours) until it is due. With the
 * schedule capped at 12 hours, a message is received at most twice per attempt. Every message
 * names its organization and mode as its message group: on a standard queue that makes it an
 * SQS fair queue, so one tenant's backlog does not delay another's messages.
 */
export function createSqsDeliveryQueue(
  client: SQSClient,
  urls: { queueUrl: string; deadLetterQueueUrl: string },
  options: BatchRetryOptions & { now?: () => number } = {},
) {
  const now = options.now ?? Date.now;
  return {
    /** The first attempts of a fan-out: one message per target, in batches SQS accepts, failed entries sent again. */
    async enqueue(tasks: DeliveryTask[]): Promise<void> {
      const { failed, lastError } = await sendInBatches(
        tasks,
        { entries: AWS_LIMITS.sqs.batchEntries, bytes: AWS_LIMITS.sqs.batchBytes, sizeOf: (task) => Buffer.byteLength(JSON.stringify(task)) },
        async (batch) => {
          const result = await client.send(
            new SendMessageBatchCommand({
              QueueUrl: urls.queueUrl,
              Entries: batch.map((task, index) => ({ Id: String(index), MessageBody: JSON.stringify(task), MessageGroupId: tenantOf(task) })),
            }),
          );
          return (result.Failed ?? []).map((entry) => Number(entry.Id));
        },
        options,
      );
      if (failed.length > 0) {
        throw new Error(`${failed.length} of ${tasks.length} deliveries could not be queued: ${(lastError as Error)?.message ?? 'batch entries failed'}`);
      }
    },

    /** The next attempt of a delivery, `delayMs` from now. */
    async retryLater(task: DeliveryTask, delayMs: number): Promise<void> {
      const delaySeconds = Math.ceil(delayMs / 1000);
      const message: QueuedTask =
        delaySeconds > AWS_LIMITS.sqs.maxDelaySeconds ? { ...task, notBefore: isoMillis(now() + delayMs) } : stripNotBefore(task);
      await client.send(
        new SendMessageCommand({
          QueueUrl: urls.queueUrl,
          MessageBody: JSON.stringify(message),
          MessageGroupId: tenantOf(task),
          DelaySeconds: Math.min(delaySeconds, AWS_LIMITS.sqs.maxDelaySeconds),
        }),
      );
    },

    /** A message received before its `notBefore`: hidden again until then (at most 12 hours). */
    async postpone(receiptHandle: string, seconds: number): Promise<void> {
      await client.send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: urls.queueUrl,
          ReceiptHandle: receiptHandle,
          VisibilityTimeout: Math.max(0, Math.min(Math.ceil(seconds), MAX_VISIBILITY_SECONDS)),
        }),
      );
    },

    /** The dead-letter queue: a reference to the event, the target and every attempt. */
    deadLetters: {
      async park(task: DeliveryTask): Promise<void> {
        await client.send(
          new SendMessageCommand({
            QueueUrl: urls.deadLetterQueueUrl,
            MessageBody: JSON.stringify(deadLetterOf(task, isoMillis(now()))),
          }),
        );
      },
    } satisfies DeadLetters,
  };
}

export type SqsDeliveryQueue = ReturnType<typeof createSqsDeliveryQueue>;

export function stripNotBefore(task: QueuedTask): DeliveryTask {
  const { notBefore: _notBefore, ...rest } = task;
  return rest;
}
