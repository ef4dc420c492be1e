import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../auth/principal';
import { createAttemptSlots } from '../db/attempt-slots';
import { createDeliveryRepository } from '../db/delivery-repository';
import { createSubscriptionReads } from '../db/webhook-repository';
import {
  planDeliveries,
  type DeliveryOutcome,
  type DeliveryPorts,
  type DeadLetters,
  type DeliveryTask,
  type PublishedEvent,
  type WebhookSender,
} from '../domain/webhook-delivery';
import { attemptDelivery } from '../domain/webhook-attempt';
import type { WebhookSubscription } from '../domain/webhooks';
import { logger } from '../observability/logger';
import { createHttpSender } from './http-sender';
import type { WebhookSettings } from './settings';

/**
 * The delivery use cases wired to the table and HTTP, shared by the AWS functions and the
 * local stack: `plan` fans an event out into one task per target, `deliver` makes one attempt.
 * Dead letters go to the SQS DLQ in AWS and to the table's dead-letter partition locally
 * (bin/local/delivery-queue.ts).
 */
export function createWebhookService(
  db: DynamoDBDocumentClient,
  tableName: string,
  settings: WebhookSettings,
  adapters: { sender?: WebhookSender; deadLetters: DeadLetters },
) {
  const webhooks = createSubscriptionReads(db, tableName);
  const ports: DeliveryPorts = {
    sender: adapters.sender ?? createHttpSender(settings),
    deadLetters: adapters.deadLetters,
    journal: createDeliveryRepository(db, tableName),
    slots: createAttemptSlots(db, tableName, settings.inFlight.perTenant),
    busyRetryMs: settings.inFlight.busyRetryMs,
    endpoints: {
      subscription: (orgId, mode, id) => webhooks.get(orgId, mode, id),
      urlSecret: (orgId, mode) => webhooks.urlSecret(orgId, mode),
    },
    policy: settings.policy,
    timeoutMs: settings.timeoutMs,
    now: () => new Date(),
  };
  /** A fan-out for one batch of events: each organization + mode's subscriptions are read once. */
  function planner(): (event: PublishedEvent) => Promise<DeliveryTask[]> {
    const lookups = new Map<string, Promise<WebhookSubscription[]>>();
    const subscriptionsOf = (orgId: string, mode: Mode) => {
      const key = `${orgId}#${mode}`;
      if (!lookups.has(key)) lookups.set(key, webhooks.list(orgId, mode));
      return lookups.get(key)!;
    };
    return (event) => planDeliveries(event, subscriptionsOf);
  }

  return {
    /** Attempts of one organization + mode at once: the local queue keeps to it in memory too. */
    perTenant: settings.inFlight.perTenant,
    planner,
    plan: (event: PublishedEvent): Promise<DeliveryTask[]> => planner()(event),
    deliver: (task: DeliveryTask): Promise<DeliveryOutcome> => attemptDelivery(task, ports),
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

/** One line per attempt; an attempt the table would not record is a warning, one given up an error. */
export function logDeliveryOutcome(task: DeliveryTask, outcome: DeliveryOutcome): void {
  const fields = { eventId: task.event.envelope.id, target: task.target.key, attempt: task.attempt, outcome: outcome.kind };
  if (outcome.kind === 'busy') logger.debug('webhook attempt deferred: its organization has every attempt slot taken', { ...fields, delayMs: outcome.delayMs });
  else if (outcome.kind === 'unrecorded') logger.warn('webhook attempt made but not recorded; recording again', { ...fields, error: outcome.error });
  else if (outcome.kind === 'abandoned') logger.error('webhook attempt neither recorded nor dead-lettered; given up', { ...fields, error: outcome.error });
  else logger.info('webhook attempt', fields);
}
