import { eventServices } from '../../shared/services/events';
import { resendEvent } from '../../shared/api/events';
import { idempotentApiHandler } from '../../shared/http/idempotent-api';

const events = eventServices();

/** POST /v1/events/{id}/resend */
export const handler = idempotentApiHandler(
  resendEvent,
  async ({ principal, path, body }) => ({ status: 202, body: await events.resend(principal, path.id, body.subscription_id) }),
);
