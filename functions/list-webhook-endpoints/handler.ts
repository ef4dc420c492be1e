import { listWebhookEndpoints } from '../../shared/api/webhook-endpoints';
import { webhookEndpointPage } from '../../shared/domain/webhook-endpoints';
import { apiHandler } from '../../shared/http/api';
import { webhookEndpointServices } from '../../shared/services/webhook-endpoints';

const endpoints = webhookEndpointServices();

/** GET /v1/webhook_endpoints: the standard list, newest first, `{has_more, data}`. */
export const handler = apiHandler(listWebhookEndpoints, async ({ principal, query }) => ({
  status: 200,
  body: webhookEndpointPage(await endpoints.list(principal, query)),
}));
