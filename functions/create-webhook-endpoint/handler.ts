import { createWebhookEndpoint } from '../../shared/api/webhook-endpoints';
import { withSecret } from '../../shared/domain/webhook-endpoints';
import { apiHandler } from '../../shared/http/api';
import { secretSealer } from '../../shared/services/sealing';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';

const endpoints = webhookEndpointServices();

/** POST /v1/webhook_endpoints: the one answer, with a roll's, that shows the secret. */
export const handler = apiHandler(
  createWebhookEndpoint,
  async ({ principal, body }) => ({
    status: 201,
    body: withSecret(await endpoints.create(principal, body)),
  }),
  // A replay's kept answer holds the secret sealed.
  secretSealer(),
);
