import { eventReadServices } from '../../shared/services/event-reads';
import { getEvent } from '../../shared/api/events';
import { apiHandler } from '../../shared/http/api';

const events = eventReadServices();

/** GET /v1/events/{id} */
export const handler = apiHandler(getEvent, async ({ principal, path }) => ({
  status: 200,
  body: await events.getEvent(principal, path.id),
}));
