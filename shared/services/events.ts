import { createEventRepository } from '../db/event-repository';
import { createRateLimiter } from '../db/rate-limit';
import { createDeliveryRepository } from '../db/webhook-delivery-repository';
import { createWebhookRepository } from '../db/webhook-repository';
import { eventUseCases } from '../use-cases/events';
import { once, processWiring, type Wiring } from './wiring';

export function eventsFor({ db, tableName }: Wiring) {
  return eventUseCases({
    events: createEventRepository(db, tableName),
    deliveries: createDeliveryRepository(db, tableName),
    webhooks: createWebhookRepository(db, tableName),
    limiter: createRateLimiter(db, tableName),
  });
}

export const eventServices = /* @__PURE__ */ once(() => eventsFor(processWiring()));
