import type { AcquirerNotificationStore } from '../db/acquirer-notification-store';
import type { AcquirerNotifications, NotificationDelivery } from '../domain/acquirer';
import { DIMENSION, METRIC } from '../observability/catalog';
import { logger } from '../observability/logger';
import { countMetric } from '../observability/metrics';
import { isoMillis } from '../time';

export interface ReceiptDeps {
  notifications: () => Promise<AcquirerNotifications>;
  store: Pick<AcquirerNotificationStore, 'keep'>;
  now: () => Date;
}

export type Receipt = { accepted: true; acknowledgement: string } | { accepted: false; reason: 'credentials' | 'signature' | 'malformed' };

/**
 * A batch of the acquirer's notifications arrives (product-decisions §12):
 * 1. check it whole: the Basic credentials, then every item's signature (the adapter's `check`);
 * 2. refused: nothing is kept or changed; the refusal is counted (AcquirerNotificationsRefused)
 *    and logged with its reason only, never the batch or its credentials;
 * 3. accepted: every notification is durably kept (a repeat finds its first copy), and only
 *    then is the batch acknowledged. Processing comes after, from the table stream.
 */
export async function receiveNotifications(deps: ReceiptDeps, delivery: NotificationDelivery): Promise<Receipt> {
  const notifications = await deps.notifications();
  const check = notifications.check(delivery);
  if (!check.accepted) {
    countMetric(METRIC.acquirerNotificationsRefused, { name: DIMENSION.reason, value: check.reason });
    logger.warn('acquirer notification batch refused (runbook AcquirerNotificationsRefused)', { reason: check.reason });
    return check;
  }
  const kept = await deps.store.keep(check.notifications, isoMillis(deps.now()));
  logger.info('acquirer notifications kept', { kept, repeated: check.notifications.length - kept, ignored: check.ignored });
  return { accepted: true, acknowledgement: notifications.acknowledgement };
}
