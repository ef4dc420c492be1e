import type { DeliveryOutcome, DeliveryTask } from '../domain/webhook-delivery';
import { logger } from '../observability/logger';

/** One line per attempt; an attempt the table would not record is a warning, one given up an error. */
export function logDeliveryOutcome(task: DeliveryTask, outcome: DeliveryOutcome): void {
  const fields = { eventId: task.event.envelope.id, target: task.target.key, attempt: task.attempt, outcome: outcome.kind };
  if (outcome.kind === 'busy') logger.debug('webhook attempt deferred: its organization has every attempt slot taken', { ...fields, delayMs: outcome.delayMs });
  else if (outcome.kind === 'unrecorded') logger.warn('webhook attempt made but not recorded; recording again', { ...fields, error: outcome.error });
  else if (outcome.kind === 'abandoned') logger.error('webhook attempt neither recorded nor dead-lettered; given up', { ...fields, error: outcome.error });
  else logger.info('webhook attempt', fields);
}
