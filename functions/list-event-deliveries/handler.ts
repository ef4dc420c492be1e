import { eventReadServices } from '../../shared/services/event-reads';
import { listEventDeliveries } from '../../shared/api/events';
import { apiHandler } from '../../shared/http/api';

const events = eventReadServices();

/** GET /v1/events/{id}/deliveries */
export const handler = apiHandler(listEventDeliveries, async ({ principal, path, query }) => ({
  status: 200,
  body: await events.listDeliveries(principal, path.id, query),
}));
