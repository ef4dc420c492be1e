import { listEventsQuery } from '../../shared/domain/event-resources';
import { apiHandler } from '../../shared/http/api';
import { eventUseCases } from '../../shared/use-cases/events';

const events = eventUseCases();

/** GET /v1/events */
export const handler = apiHandler({ scope: 'event:read', query: listEventsQuery }, async ({ principal, query }) => ({
  status: 200,
  body: await events.listEvents(principal, query),
}));
