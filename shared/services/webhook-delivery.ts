import { SQSClient } from '@aws-sdk/client-sqs';
import { createWebhookService } from '../webhooks/delivery-service';
import { AWS_WEBHOOK_SETTINGS, loadWebhookSettings } from '../webhooks/settings';
import { createSqsDeliveryQueue } from '../webhooks/sqs-delivery-queue';
import { once, processWiring } from './wiring';

/** The webhook queue's consumer: its queue and dead-letter queue, and the deliveries' planning and sending. */
export const webhookDelivery = /* @__PURE__ */ once(() => {
  const queue = createSqsDeliveryQueue(new SQSClient({}), { queueUrl: process.env.WEBHOOK_QUEUE_URL!, deadLetterQueueUrl: process.env.WEBHOOK_DLQ_URL! });
  const { db, tableName } = processWiring();
  const service = createWebhookService(db, tableName, loadWebhookSettings(process.env, AWS_WEBHOOK_SETTINGS), { deadLetters: queue.deadLetters });
  return { queue, plan: service.plan, deliver: service.deliver };
});
