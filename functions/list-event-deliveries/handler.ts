import { listEventDeliveries } from '../../shared/api/events';
import { apiHandler } from '../../shared/http/api';
import { eventUseCases } from '../../shared/use-cases/events';

const events = eventUseCases();

/** GET /v1/events/{id}/deliveries */
export const handler = apiHandler(listEventDeliveries, async ({ principal, path }) => ({
  status: 200,
  body: await events.listDeliveries(principal, path.id),
}));
