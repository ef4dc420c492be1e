import type { EventFamily } from '../events';
import { CHARGEBACK_EVENTS } from './chargebacks';
import { PAYMENT_LINK_EVENTS } from './payment-links';
import { PAYMENT_EVENTS } from './payments';
import { REFUND_EVENTS } from './refunds';
import { REPORT_EVENTS } from './reports';
import { matchesPattern } from './webhooks';

/**
 * The registry of event types: each type the service emits, with the schema of its `data` and
 * when it fires. Every family is declared next to the rules that build its events; adding a type
 * is one entry there. The OpenAPI document (its `webhooks` and the `Event` union), the events
 * API's `type` filter, the webhook endpoints' pattern check (API and `ops webhook create`) and the
 * tests read this.
 */
export const EVENT_REGISTRY = {
  ...PAYMENT_LINK_EVENTS,
  ...PAYMENT_EVENTS,
  ...REFUND_EVENTS,
  ...CHARGEBACK_EVENTS,
  ...REPORT_EVENTS,
} as const satisfies EventFamily;

export type EventType = keyof typeof EVENT_REGISTRY;

/** Every event type, in the registry's order (the reference lists them so). */
export const EVENT_TYPES = Object.keys(EVENT_REGISTRY) as EventType[];

/** A subscription pattern that can match something: `*`, a declared type, or a prefix of one. */
export const isKnownEventPattern = (pattern: string) => EVENT_TYPES.some((type) => matchesPattern(pattern, type));
