import { SQSClient } from '@aws-sdk/client-sqs';
import { loadConfig } from '../../shared/config';
import { observed } from '../../shared/observability/middleware';
import { documentClient } from '../../shared/db/client';
import { createWebhookService } from '../../shared/webhooks/delivery-service';
import { AWS_WEBHOOK_SETTINGS, loadWebhookSettings } from '../../shared/webhooks/settings';
import { createSqsWebhookConsumer } from '../../shared/webhooks/sqs-consumer';
import { createSqsDeliveryQueue } from '../../shared/webhooks/sqs-delivery-queue';

const queue = createSqsDeliveryQueue(new SQSClient({}), {
  queueUrl: process.env.WEBHOOK_QUEUE_URL!,
  deadLetterQueueUrl: process.env.WEBHOOK_DLQ_URL!,
});
const service = createWebhookService(documentClient(), loadConfig().tableName, loadWebhookSettings(process.env, AWS_WEBHOOK_SETTINGS), {
  deadLetters: queue.deadLetters,
});

/** Webhook queue -> fan-out of bus events into per-target messages, and one attempt per delivery message. */
export const handler = observed(createSqsWebhookConsumer({ plan: service.plan, deliver: service.deliver, queue }));
