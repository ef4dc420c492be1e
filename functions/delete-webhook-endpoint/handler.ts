import { deleteWebhookEndpoint } from '../../shared/api/webhook-endpoints';
import { deletedWebhookEndpoint } from '../../shared/domain/webhook-endpoints';
import { apiHandler } from '../../shared/http/api';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';

const endpoints = webhookEndpointServices();

/** DELETE /v1/webhook_endpoints/{id} */
export const handler = apiHandler(deleteWebhookEndpoint, async ({ principal, path }) => {
  await endpoints.remove(principal, path.id);
  return { status: 200, body: deletedWebhookEndpoint(path.id) };
});
