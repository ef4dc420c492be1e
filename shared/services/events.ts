import { createDeliveryRepository } from '../db/delivery-repository';
import { createEventRepository } from '../db/event-repository';
import { createRateLimiter } from '../db/rate-limit';
import { createSubscriptionReads } from '../db/webhook-repository';
import { eventUseCases } from '../use-cases/events';
import { once, processWiring } from './wiring';

/** The resend's ports (the event reads have theirs in event-reads.ts). */
export const eventServices = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return eventUseCases({
    events: createEventRepository(db, tableName),
    deliveries: createDeliveryRepository(db, tableName),
    webhooks: createSubscriptionReads(db, tableName),
    limiter: createRateLimiter(db, tableName),
  });
});
