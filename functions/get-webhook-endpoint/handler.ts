import { getWebhookEndpoint } from '../../shared/api/webhook-endpoints';
import { webhookEndpointResource } from '../../shared/domain/webhook-endpoints';
import { apiHandler } from '../../shared/http/api';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';

const endpoints = webhookEndpointServices();

/** GET /v1/webhook_endpoints/{id} */
export const handler = apiHandler(getWebhookEndpoint, async ({ principal, path }) => ({
  status: 200,
  body: webhookEndpointResource(await endpoints.get(principal, path.id)),
}));
