import { listEvents } from '../../shared/api/events';
import { apiHandler } from '../../shared/http/api';
import { eventUseCases } from '../../shared/use-cases/events';

const events = eventUseCases();

/** GET /v1/events */
export const handler = apiHandler(listEvents, async ({ principal, query }) => ({
  status: 200,
  body: await events.listEvents(principal, query),
}));
