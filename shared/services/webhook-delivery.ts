import { SQSClient } from '@aws-sdk/client-sqs';
import type { Mode } from '../auth/principal';
import { createAttemptSlots } from '../db/attempt-slots';
import { createDeliveryRepository } from '../db/delivery-repository';
import { createSigningSecrets, createSubscriptionReads } from '../db/webhook-repository';
import type { SecretSealer } from '../domain/sealing';
import {
  planDeliveries,
  sharedPerBatch,
  type DeliveryOutcome,
  type DeliveryPorts,
  type DeadLetters,
  type DeliveryTask,
  type PublishedEvent,
  type WebhookSender,
} from '../domain/webhook-delivery';
import { attemptDelivery } from '../domain/webhook-attempt';
import type { WebhookSubscription } from '../domain/webhooks';
import { createHttpSender } from '../webhooks/http-sender';
import { AWS_WEBHOOK_SETTINGS, loadWebhookSettings, type WebhookSettings } from '../webhooks/settings';
import { createSqsDeliveryQueue } from '../webhooks/sqs-delivery-queue';
import { keepingOpened, OPENED_SECRETS_KEPT, OPENED_SECRET_TTL_MS } from '../crypto/opened-secrets';
import { secretSealer } from './sealing';
import { once, processWiring, type Wiring } from './wiring';

/**
 * The delivery use cases wired to the table and HTTP: `plan` fans an event out into one task
 * per target, `deliver` makes one attempt, its secrets opened by `adapters.sealer`; dead letters
 * go to `adapters.deadLetters` (the SQS DLQ).
 */
export function webhookServiceFor(
  { db, tableName }: Pick<Wiring, 'db' | 'tableName'>,
  settings: WebhookSettings,
  adapters: { sender?: WebhookSender; deadLetters: DeadLetters; sealer: SecretSealer },
) {
  const webhooks = createSubscriptionReads(db, tableName);
  const secrets = createSigningSecrets(db, tableName, adapters.sealer);
  const ports: DeliveryPorts = {
    sender: adapters.sender ?? createHttpSender(settings),
    deadLetters: adapters.deadLetters,
    journal: createDeliveryRepository(db, tableName),
    slots: createAttemptSlots(db, tableName, settings.inFlight.perTenant),
    busyRetryMs: settings.inFlight.busyRetryMs,
    endpoints: {
      subscription: (orgId, mode, id) => webhooks.get(orgId, mode, id),
      signingSecrets: (subscription, at) => secrets.signingSecrets(subscription, at),
      urlSecret: (orgId, mode) => secrets.urlSecret(orgId, mode),
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
    planner,
    plan: (event: PublishedEvent): Promise<DeliveryTask[]> => planner()(event),
    deliver: (task: DeliveryTask): Promise<DeliveryOutcome> => attemptDelivery(task, ports),
    /** The attempts of one batch of the queue: its deliveries of one tenant share one slot (`sharedPerBatch`). */
    batchDeliverer(): (task: DeliveryTask) => Promise<DeliveryOutcome> {
      const batchPorts = { ...ports, slots: sharedPerBatch(ports.slots) };
      return (task) => attemptDelivery(task, batchPorts);
    },
  };
}

export type WebhookService = ReturnType<typeof webhookServiceFor>;

/**
 * The webhook queue's consumer: its queue and dead-letter queue, and the deliveries' planning and
 * sending. The secrets it opens stay open for OPENED_SECRET_TTL_MS in this execution
 * environment (docs/decisions.md 98): one Decrypt per secret and container every few minutes,
 * not one per attempt.
 */
export const webhookDelivery = /* @__PURE__ */ once(() => {
  const queue = createSqsDeliveryQueue(new SQSClient({}), { queueUrl: process.env.WEBHOOK_QUEUE_URL!, deadLetterQueueUrl: process.env.WEBHOOK_DLQ_URL! });
  const { db, tableName } = processWiring();
  const sealer = keepingOpened(secretSealer(), { ttlMs: OPENED_SECRET_TTL_MS, maxEntries: OPENED_SECRETS_KEPT });
  const service = webhookServiceFor({ db, tableName }, loadWebhookSettings(process.env, AWS_WEBHOOK_SETTINGS), { deadLetters: queue.deadLetters, sealer });
  return { queue, plan: service.plan, batchDeliverer: service.batchDeliverer };
});
