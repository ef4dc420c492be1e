/**
 * Webhook endpoints over the API (product-decisions §14): what a merchant sends and reads. An
 * endpoint is a webhook subscription (./webhooks.ts); this file is its API face. Pure rules.
 */
import * as z from '../zod';
import { BusinessRuleError } from '../errors';
import { LIMITS } from '../limits';
import { pageSchema } from '../pagination';
import { DatetimeSchema } from '../time';
import { isKnownEventPattern } from './event-types';
import { businessRule, httpUrlInput } from './inputs';
import { ENDPOINT_STATUSES, type SubscriptionWithSecret, type WebhookSubscription } from './webhooks';

/** At most this many endpoints per organization and mode: the 17th is refused (422). */
export const ENDPOINTS_PER_SCOPE = 16;

/** How long the secret before a roll keeps signing, by default and at most (seconds). */
export const ROLL_OVERLAP = { defaultSeconds: 86_400, maxSeconds: 604_800 } as const;

export class EndpointLimitError extends BusinessRuleError {
  constructor() {
    super(`An organization has at most ${ENDPOINTS_PER_SCOPE} webhook endpoints per mode; delete one first`);
  }
}

/**
 * `enabled_events`: each an event type, a `prefix.*` wildcard or `*` that matches at least one
 * type the service emits (the event registry), else 422 on the list; a malformed pattern
 * matches nothing, so it is the same 422. Repeated patterns are kept once.
 */
const enabledEventsInput = /* @__PURE__ */ (() =>
  z.withMeta(
    z
      .array(z.string().check(z.maxLength(LIMITS.webhookEndpoint.patternLength)))
      .check(
        z.maxLength(LIMITS.webhookEndpoint.patterns),
        z.refine(...businessRule<string[]>((patterns) => patterns.length > 0, 'enabled_events needs at least one event pattern')),
        z.refine(
          ...businessRule<string[]>(
            (patterns) => patterns.every(isKnownEventPattern),
            'enabled_events: each pattern is an event type, a prefix ending in .* or *, and matches an event type the service emits',
          ),
        ),
      ),
    {
      description:
        'Event types to receive: exact types (`transactions.refund.refunded`), wildcards below a prefix (`transactions.payment_link.*`) or `*`. ' +
        'A pattern that matches no event type is a 422.',
      example: ['transactions.payment_link.*', 'transactions.refund.refunded'],
    },
  ))();

const descriptionInput = /* @__PURE__ */ (() =>
  z.withMeta(z.nullable(z.string().check(z.maxLength(LIMITS.descriptionLength))), { description: 'A label for the merchant; null for none.' }))();

const endpointUrlInput = /* @__PURE__ */ (() =>
  z.withMeta(httpUrlInput, {
    description: 'Where deliveries are POSTed. In AWS an https URL on a public address (422 otherwise); at most 2,048 characters.',
    example: 'https://shop.example/webhooks',
  }))();

/** Body of `POST /v1/webhook_endpoints`. */
export const webhookEndpointCreateBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({ url: endpointUrlInput, enabled_events: enabledEventsInput, description: z.optional(descriptionInput) }),
    { id: 'WebhookEndpointCreateRequest' },
  ))();
export type WebhookEndpointCreateBody = z.infer<typeof webhookEndpointCreateBody>;

/** Body of `POST /v1/webhook_endpoints/:id`: any of the fields; an empty body is a 422. */
export const webhookEndpointUpdateBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      url: z.optional(endpointUrlInput),
      enabled_events: z.optional(enabledEventsInput),
      description: z.optional(descriptionInput),
      status: z.withMeta(z.optional(z.enum(ENDPOINT_STATUSES)), {
        description: '`disabled`: the endpoint receives nothing, and deliveries already queued to it stop; `enabled` again: new events only.',
      }),
    }),
    { id: 'WebhookEndpointUpdateRequest' },
  ))();
export type WebhookEndpointUpdateBody = z.infer<typeof webhookEndpointUpdateBody>;

/** Body of `POST /v1/webhook_endpoints/:id/roll_secret`. */
export const rollSecretBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      expires_in_seconds: z.withMeta(
        z.optional(
          z
            .number()
            .check(
              z.refine(
                ...businessRule<number>(
                  (seconds) => Number.isInteger(seconds) && seconds >= 0 && seconds <= ROLL_OVERLAP.maxSeconds,
                  `expires_in_seconds must be an integer from 0 to ${ROLL_OVERLAP.maxSeconds}`,
                ),
              ),
            ),
        ),
        {
          description: `How long the current secret keeps signing beside the new one (default ${ROLL_OVERLAP.defaultSeconds}); 0 ends it now.`,
          override: { type: 'integer', minimum: 0, maximum: ROLL_OVERLAP.maxSeconds, default: ROLL_OVERLAP.defaultSeconds },
        },
      ),
    }),
    { id: 'WebhookEndpointRollSecretRequest' },
  ))();
export type RollSecretBody = z.infer<typeof rollSecretBody>;

/** The changes an update asks for, in the stored record's terms; a 422 when it asks for none. */
export function endpointChanges(body: WebhookEndpointUpdateBody): EndpointChanges {
  const changes: EndpointChanges = {
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(body.enabled_events !== undefined ? { events: distinct(body.enabled_events) } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.status !== undefined ? { status: body.status } : {}),
  };
  if (Object.keys(changes).length === 0) throw new BusinessRuleError('The update body must contain at least one updatable field');
  return changes;
}

export type EndpointChanges = Partial<Pick<WebhookSubscription, 'url' | 'events' | 'description' | 'status'>>;

/** Patterns in the order given, each once. */
export const distinct = (patterns: string[]) => [...new Set(patterns)];

// ---------------------------------------------------------------------------------------------
// Output

export const WebhookEndpointSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      id: z.withMeta(z.string(), { description: 'Prefix `whk_`.', example: 'whk_01jd2x3y4z5a6b7c8d9e0f1g2h' }),
      object: z.literal('webhook_endpoint'),
      url: z.string(),
      enabled_events: z.array(z.string()),
      description: z.nullable(z.string()),
      status: z.enum(ENDPOINT_STATUSES),
      created_at: DatetimeSchema,
    }),
    { id: 'WebhookEndpoint', description: "A webhook endpoint of the key's organization and mode. Its secret is shown at creation and at a roll only." },
  ))();

export const WebhookEndpointWithSecretSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      ...WebhookEndpointSchema.shape,
      secret: z.withMeta(z.string(), {
        description: 'The signing secret (`whsec_…`, Standard Webhooks): shown in this answer only; keep it to verify deliveries.',
      }),
    }),
    { id: 'WebhookEndpointWithSecret', description: 'A webhook endpoint with its signing secret, shown once.' },
  ))();

export const DeletedWebhookEndpointSchema = /* @__PURE__ */ (() =>
  z.withMeta(z.strictObject({ id: z.string(), object: z.literal('webhook_endpoint'), deleted: z.literal(true) }), { id: 'DeletedWebhookEndpoint' }))();

export const WebhookEndpointListSchema = /* @__PURE__ */ (() =>
  pageSchema(WebhookEndpointSchema, 'WebhookEndpointList', 'A page of webhook endpoints, newest first.'))();

export type WebhookEndpointResource = z.infer<typeof WebhookEndpointSchema>;

export function webhookEndpointResource(endpoint: WebhookSubscription): WebhookEndpointResource {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    url: endpoint.url,
    enabled_events: endpoint.events,
    description: endpoint.description,
    status: endpoint.status,
    created_at: endpoint.createdAt,
  };
}

/** The answer of a creation and of a roll: the only ones that show the secret. */
export const withSecret = (endpoint: SubscriptionWithSecret): z.infer<typeof WebhookEndpointWithSecretSchema> => ({
  ...webhookEndpointResource(endpoint),
  secret: endpoint.secret,
});

export const deletedWebhookEndpoint = (id: string): z.infer<typeof DeletedWebhookEndpointSchema> => ({ id, object: 'webhook_endpoint', deleted: true });

export function webhookEndpointPage(page: { items: WebhookSubscription[]; hasMore: boolean }): z.infer<typeof WebhookEndpointListSchema> {
  return { has_more: page.hasMore, data: page.items.map(webhookEndpointResource) };
}
