import { createDeliveryRepository } from '../db/delivery-repository';
import { createEventRepository } from '../db/event-repository';
import { eventReads } from '../use-cases/events';
import { once, processWiring } from './wiring';

/** What the event reads use, apart from the resend's wiring (see chargeback-reads.ts). */
export const eventReadServices = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return eventReads({ events: createEventRepository(db, tableName), deliveries: createDeliveryRepository(db, tableName) });
});
