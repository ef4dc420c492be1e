import { updateWebhookEndpoint } from '../../shared/api/webhook-endpoints';
import { webhookEndpointResource } from '../../shared/domain/webhook-endpoints';
import { apiHandler } from '../../shared/http/api';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';

const endpoints = webhookEndpointServices();

/** POST /v1/webhook_endpoints/{id} (partial update) */
export const handler = apiHandler(updateWebhookEndpoint, async ({ principal, path, body }) => ({
  status: 200,
  body: webhookEndpointResource(await endpoints.update(principal, path.id, body)),
}));
