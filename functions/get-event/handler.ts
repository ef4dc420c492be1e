import { eventIdPath } from '../../shared/domain/event-resources';
import { apiHandler } from '../../shared/http/api';
import { eventUseCases } from '../../shared/use-cases/events';

const events = eventUseCases();

/** GET /v1/events/{id} */
export const handler = apiHandler({ scope: 'event:read', path: eventIdPath }, async ({ principal, path }) => ({
  status: 200,
  body: await events.getEvent(principal, path.id),
}));
