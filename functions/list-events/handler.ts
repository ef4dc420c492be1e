import { eventReadServices } from '../../shared/services/event-reads';
import { listEvents } from '../../shared/api/events';
import { apiHandler } from '../../shared/http/api';

const events = eventReadServices();

/** GET /v1/events */
export const handler = apiHandler(listEvents, async ({ principal, query }) => ({
  status: 200,
  body: await events.listEvents(principal, query),
}));
