import { eventIdPath, resendEventBody } from '../../shared/domain/event-resources';
import { apiHandler } from '../../shared/http/api';
import { eventUseCases } from '../../shared/use-cases/events';

const events = eventUseCases();

/** POST /v1/events/{id}/resend */
export const handler = apiHandler(
  { scope: 'event:resend', path: eventIdPath, body: resendEventBody },
  async ({ principal, path, body }) => ({ status: 202, body: await events.resend(principal, path.id, body.subscription_id) }),
);
