import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDeliveryRepository } from '../db/webhook-delivery-repository';
import { createWebhookRepository } from '../db/webhook-repository';
import {
  attemptDelivery,
  planDeliveries,
  type DeliveryOutcome,
  type DeliveryPorts,
  type DeadLetters,
  type DeliveryTask,
  type PublishedEvent,
  type WebhookSender,
} from '../domain/webhook-delivery';
import { createHttpSender } from './http-sender';
import type { WebhookSettings } from './settings';

/**
 * The delivery use cases wired to the table and HTTP, shared by the AWS functions and the
 * local stack: `plan` fans an event out into one task per target, `deliver` makes one attempt.
 * Dead letters go to the SQS DLQ in AWS and to the table's dead-letter partition by default.
 */
export function createWebhookService(
  db: DynamoDBDocumentClient,
  tableName: string,
  settings: WebhookSettings,
  adapters: { sender?: WebhookSender; deadLetters?: DeadLetters } = {},
) {
  const webhooks = createWebhookRepository(db, tableName);
  const deliveries = createDeliveryRepository(db, tableName);
  const ports: DeliveryPorts = {
    sender: adapters.sender ?? createHttpSender(settings),
    deadLetters: adapters.deadLetters ?? deliveries,
    journal: deliveries.journal,
    secrets: {
      subscriptionSecret: async (orgId, mode, id) => (await webhooks.get(orgId, mode, id))?.secret,
      urlSecret: (orgId, mode) => webhooks.urlSecret(orgId, mode),
    },
    policy: settings.policy,
    timeoutMs: settings.timeoutMs,
  };
  return {
    deliveries,
    plan: (event: PublishedEvent): Promise<DeliveryTask[]> => planDeliveries(event, (orgId, mode) => webhooks.list(orgId, mode)),
    deliver: (task: DeliveryTask): Promise<DeliveryOutcome> => attemptDelivery(task, ports),
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
