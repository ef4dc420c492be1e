import {
  DeletedWebhookEndpointSchema,
  rollSecretBody,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  webhookEndpointCreateBody,
  webhookEndpointUpdateBody,
} from '../domain/webhook-endpoints';
import { ListQuery } from '../pagination';
import { defineList, defineOperation, defineRetrieve, NoParams, NoQuery, pathParam } from './operation';

const endpointId = /* @__PURE__ */ (() => pathParam('id', 'The webhook endpoint id (`whk_…`).', 'whk_01jd2x3y4z5a6b7c8d9e0f1g2h'))();

export const createWebhookEndpoint = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/webhook_endpoints',
  handler: 'create-webhook-endpoint',
  audit: { action: 'webhook_endpoint.created', target: 'created' },
  table: 'write',
  // The new secret is stored sealed and shown as made; a replay's kept answer holds it sealed and opens it.
  sealedSecrets: ['seal', 'open'],
  auth: { scope: 'webhook:write' },
  params: NoParams,
  query: NoQuery,
  body: webhookEndpointCreateBody,
  tag: 'Webhook endpoints',
  summary: 'Create a webhook endpoint',
  description:
    "An endpoint of the key's organization and mode, `enabled`, receiving every event whose type one of `enabled_events` matches, signed per " +
    'Standard Webhooks with its own secret. The answer is the only one (with a roll\'s) that shows the secret.',
  success: { status: 201, description: 'The new endpoint with its secret.', schema: WebhookEndpointWithSecretSchema },
  errors: {
    422: {
      description:
        'A pattern matches no event type (`enabled_events`), the URL is not deliverable from the service (`url`: in AWS an https URL on a public ' +
        'address), or the organization already has 16 endpoints in this mode.',
    },
  },
});

export const listWebhookEndpoints = /* @__PURE__ */ defineList({
  path: '/v1/webhook_endpoints',
  handler: 'list-webhook-endpoints',
  auth: { scope: 'webhook:read' },
  params: NoParams,
  query: ListQuery,
  tag: 'Webhook endpoints',
  summary: 'List webhook endpoints',
  description: "The endpoints of the key's organization and mode, newest first; never a secret.",
  success: { status: 200, description: 'A page of endpoints.', schema: WebhookEndpointListSchema },
});

export const getWebhookEndpoint = /* @__PURE__ */ defineRetrieve({
  path: '/v1/webhook_endpoints/{id}',
  handler: 'get-webhook-endpoint',
  auth: { scope: 'webhook:read' },
  params: endpointId,
  tag: 'Webhook endpoints',
  summary: 'Retrieve a webhook endpoint',
  description: 'The endpoint, without its secret.',
  success: { status: 200, description: 'The endpoint.', schema: WebhookEndpointSchema },
});

export const updateWebhookEndpoint = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/webhook_endpoints/{id}',
  handler: 'update-webhook-endpoint',
  audit: { action: 'webhook_endpoint.updated', target: 'path' },
  table: 'write',
  auth: { scope: 'webhook:write' },
  params: endpointId,
  query: NoQuery,
  body: webhookEndpointUpdateBody,
  tag: 'Webhook endpoints',
  summary: 'Update a webhook endpoint',
  description:
    'Partial update over POST: omitted fields are kept. A `disabled` endpoint receives nothing new, and deliveries already queued to it stop ' +
    '(each attempt reads the endpoint first); deliveries still queued go to its current URL and stop for types it no longer matches.',
  success: { status: 200, description: 'The updated endpoint.', schema: WebhookEndpointSchema },
  errors: { 422: { description: 'An empty body; a pattern that matches no event type (`enabled_events`); a URL not deliverable from the service (`url`).' } },
});

export const deleteWebhookEndpoint = /* @__PURE__ */ defineOperation({
  method: 'DELETE',
  path: '/v1/webhook_endpoints/{id}',
  handler: 'delete-webhook-endpoint',
  audit: { action: 'webhook_endpoint.deleted', target: 'path' },
  // The endpoint's item deleted in the transaction that lowers its scope's count.
  table: { level: 'write', also: ['DeleteItem'] },
  auth: { scope: 'webhook:write' },
  params: endpointId,
  query: NoQuery,
  tag: 'Webhook endpoints',
  summary: 'Delete a webhook endpoint',
  description: 'The endpoint receives nothing more: deliveries already queued to it stop. Its place counts no more against the 16.',
  success: { status: 200, description: 'The deleted endpoint.', schema: DeletedWebhookEndpointSchema },
});

export const rollWebhookEndpointSecret = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/webhook_endpoints/{id}/roll_secret',
  handler: 'roll-webhook-endpoint-secret',
  audit: { action: 'webhook_endpoint.secret_rolled', target: 'path' },
  table: 'write',
  // The new secret sealed (the current one becomes the previous one as sealed); a replay's kept answer opens it.
  sealedSecrets: ['seal', 'open'],
  auth: { scope: 'webhook:write' },
  params: endpointId,
  query: NoQuery,
  body: rollSecretBody,
  tag: 'Webhook endpoints',
  summary: "Roll a webhook endpoint's secret",
  description:
    'A new signing secret, shown in this answer only. Until the current secret expires (`expires_in_seconds`, default a day, at most 7 days) every ' +
    'delivery to the endpoint carries both signatures (`v1,<new> v1,<old>` in `webhook-signature`), so a receiver verifying with either accepts it. ' +
    'A roll during an overlap ends the older overlap.',
  success: { status: 200, description: 'The endpoint with its new secret.', schema: WebhookEndpointWithSecretSchema },
  errors: { 422: { description: '`expires_in_seconds` is not an integer from 0 to 604800.' } },
});

export const webhookEndpointOperations = [
  createWebhookEndpoint,
  listWebhookEndpoints,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rollWebhookEndpointSecret,
];
