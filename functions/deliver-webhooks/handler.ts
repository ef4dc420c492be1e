import { observed } from '../../shared/observability/middleware';
import { webhookDelivery } from '../../shared/services/webhook-delivery';
import { createSqsWebhookConsumer } from '../../shared/webhooks/sqs-consumer';

/** Webhook queue -> fan-out of bus events into per-target messages, and one attempt per delivery message. */
export const handler = observed(createSqsWebhookConsumer(webhookDelivery()));
