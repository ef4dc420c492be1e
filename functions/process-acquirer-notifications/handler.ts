import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { isNotificationRecord, storedNotificationOf, type NotificationRecord } from '../../shared/db/acquirer-notification-store';
import { logger } from '../../shared/observability/logger';
import { observed } from '../../shared/observability/middleware';
import { notificationProcessing } from '../../shared/services/acquirer-processing';
import { processNotification } from '../../shared/use-cases/acquirer-notifications';

const deps = notificationProcessing();

/**
 * Table stream (kept acquirer notifications not processed yet) → each processed once, in
 * stream order. The first one that fails is reported: the stream hands it and those after it
 * over again (bounded retries, then the on-failure queue and its alarm); those before it are done.
 */
export const handler = observed(async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  for (const record of event.Records as NotificationRecord[]) {
    if (!isNotificationRecord(record)) continue;
    const stored = storedNotificationOf(record);
    try {
      const outcome = await processNotification(deps, stored);
      logger.info('acquirer notification processed', { notificationId: stored.id, kind: stored.notification.kind, outcome });
    } catch (error) {
      logger.error('acquirer notification not processed; the stream hands it over again', { notificationId: stored.id, kind: stored.notification.kind, error: error as Error });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
    }
  }
  return { batchItemFailures: [] };
});
