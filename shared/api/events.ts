import { DeliveryAttemptListSchema, EventListSchema, EventResendSchema, EventSchema, listEventsQuery, resendEventBody } from '../domain/event-resources';
import { ListQuery } from '../pagination';
import { defineList, defineOperation, defineRetrieve, NoParams, NoQuery, pathParam } from './operation';

const eventIdPath = /* @__PURE__ */ (() => pathParam('id', 'The event id (`evt_…`).', 'evt_01jd2x3y4z5a6b7c8d9e0f1g2h'))();

export const listEvents = /* @__PURE__ */ defineList({
  path: '/v1/events',
  handler: 'list-events',
  auth: { scope: 'event:read' },
  params: NoParams,
  query: listEventsQuery,
  tag: 'Events',
  summary: 'List events',
  description:
    "The events of the key's organization and mode, newest first, kept 35 days. `type` takes an exact type, a `prefix.*` wildcard or `*`, like webhook subscriptions.",
  success: { status: 200, description: 'A page of event envelopes.', schema: EventListSchema },
});

export const getEvent = /* @__PURE__ */ defineRetrieve({
  path: '/v1/events/{id}',
  handler: 'get-event',
  auth: { scope: 'event:read' },
  params: eventIdPath,
  tag: 'Events',
  summary: 'Retrieve an event',
  description: 'The event envelope exactly as webhooks deliver it.',
  success: { status: 200, description: 'The event.', schema: EventSchema },
});

export const listEventDeliveries = /* @__PURE__ */ defineList({
  path: '/v1/events/{id}/deliveries',
  handler: 'list-event-deliveries',
  auth: { scope: 'event:read' },
  params: eventIdPath,
  query: ListQuery,
  tag: 'Events',
  summary: "List an event's delivery attempts",
  description: 'Every attempt to deliver the event, oldest first: time, endpoint, status code, duration, error.',
  success: { status: 200, description: 'The attempts.', schema: DeliveryAttemptListSchema },
});

export const resendEvent = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/events/{id}/resend',
  handler: 'resend-event',
  audit: { action: 'event.resent', target: 'path' },
  table: 'write',
  auth: { scope: 'event:resend' },
  params: eventIdPath,
  query: NoQuery,
  body: resendEventBody,
  tag: 'Events',
  summary: 'Resend an event',
  description:
    'Replays the event to every subscription matching it now (and its per-object URLs), or with `subscription_id` to that subscription only. Delivered asynchronously with the same `webhook-id`.',
  success: { status: 202, description: 'The replay request.', schema: EventResendSchema },
  errors: {
    422: { description: '`subscription_id` names no subscription of this organization and mode, or a disabled one.' },
    429: { description: 'More than 5 resends of this event, or 60 of this organization and mode, in the current minute.' },
  },
});

export const eventOperations = [listEvents, getEvent, listEventDeliveries, resendEvent];
