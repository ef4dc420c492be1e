import { rollWebhookEndpointSecret } from '../../shared/api/webhook-endpoints';
import { withSecret } from '../../shared/domain/webhook-endpoints';
import { apiHandler } from '../../shared/http/api';
import { secretSealer } from '../../shared/services/sealing';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';

const endpoints = webhookEndpointServices();

/** POST /v1/webhook_endpoints/{id}/roll_secret: the new secret, shown in this answer only. */
export const handler = apiHandler(
  rollWebhookEndpointSecret,
  async ({ principal, path, body }) => ({
    status: 200,
    body: withSecret(await endpoints.rollSecret(principal, path.id, body)),
  }),
  // A replay's kept answer holds the secret sealed.
  secretSealer(),
);
