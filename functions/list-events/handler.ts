import { eventServices } from '../../shared/services/events';
import { listEvents } from '../../shared/api/events';
import { apiHandler } from '../../shared/http/api';

const events = eventServices();

/** GET /v1/events */
export const handler = apiHandler(listEvents, async ({ principal, query }) => ({
  status: 200,
  body: await events.listEvents(principal, query),
}));
