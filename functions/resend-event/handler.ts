import { eventServices } from '../../shared/services/events';
import { resendEvent } from '../../shared/api/events';
import { apiHandler } from '../../shared/http/api';

const events = eventServices();

/** POST /v1/events/{id}/resend */
export const handler = apiHandler(
  resendEvent,
  async ({ principal, path, body }) => ({ status: 202, body: await events.resend(principal, path.id, body.subscription_id) }),
);
