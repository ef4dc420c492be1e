/**
 * Webhook subscriptions (product-decisions §9), which the API calls webhook endpoints (§14):
 * organization + mode + URL + event patterns, each with its own Standard Webhooks signing
 * secret. Pure rules: no I/O here.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Mode } from '../auth/principal';
import type { SealingContext } from './sealing';

export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

export interface WebhookSubscription {
  id: string;
  orgId: string;
  mode: Mode;
  url: string;
  /** Patterns: an exact type, a `prefix.*` wildcard, or `*`. */
  events: string[];
  description: string | null;
  /** A disabled subscription receives nothing, not even the deliveries queued before. */
  status: EndpointStatus;
  /**
   * The signing secret (`whsec_` + base64) sealed under the stage's key for this endpoint
   * (`endpointSecretContext`): only the functions that declare `sealedSecrets: ['open']` (the
   * deliverer) can read it; never logged, never listed.
   */
  sealedSecret: string;
  /** The secret before the last roll, sealed the same way: deliveries carry its signature too until it expires. */
  sealedPreviousSecret?: string;
  previousSecretExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** A subscription as created or rolled: with its new secret in plain, for the one answer that shows it. */
export type SubscriptionWithSecret = WebhookSubscription & { secret: string };

const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/**
 * The `prefix.*` wildcards that match a type, shortest first: `a.b.c` → `a.`, `a.b.` (what
 * `matchesPattern` accepts, so a wildcard list can be indexed by prefix).
 */
export function typePrefixes(type: string): string[] {
  const segments = type.split('.');
  return segments.slice(1).map((_segment, depth) => `${segments.slice(0, depth + 1).join('.')}.`);
}

export function isEventPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  return EVENT_TYPE.test(pattern.endsWith('.*') ? pattern.slice(0, -2) : pattern);
}

/**
 * `*` matches every type; `a.b.*` matches every type below `a.b` (`a.b.c`, `a.b.c.d`, not `a.b`
 * itself nor `a.bc`); anything else matches only the identical type.
 */
export function matchesPattern(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export function isSubscribedTo(subscription: Pick<WebhookSubscription, 'events'>, type: string): boolean {
  return subscription.events.some((pattern) => matchesPattern(pattern, type));
}

/**
 * Whether the subscription takes an event of `type` now: not disabled, with a pattern matching
 * it (one written before statuses existed has none and keeps receiving). The fan-out asks
 * before queueing, and every attempt asks again before it sends, so a subscription disabled,
 * narrowed or deleted meanwhile stops its queued deliveries too.
 */
export function receives(subscription: Pick<WebhookSubscription, 'events' | 'status'>, type: string): boolean {
  return subscription.status !== 'disabled' && isSubscribedTo(subscription, type);
}

export const SIGNING_SECRET_PREFIX = 'whsec_';
/** Standard Webhooks asks for 24 to 64 random bytes. */
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * What an endpoint's secrets are sealed for: signing its deliveries, in its organization. A
 * sealed secret copied onto another endpoint's item does not open there.
 */
export const endpointSecretContext = (endpoint: Pick<WebhookSubscription, 'orgId' | 'id'>): SealingContext => ({
  purpose: 'webhook_signing_secret',
  org_id: endpoint.orgId,
  webhook_endpoint_id: endpoint.id,
});

/** What the secret signing an organization and mode's per-object URLs is sealed for. */
export const urlSecretContext = (orgId: string, mode: Mode): SealingContext => ({ purpose: 'webhook_url_signing_secret', org_id: orgId, mode });

/**
 * The secrets a delivery at `at` is signed with, newest first: the subscription's secret, and
 * after a roll the one before until it expires, so a receiver verifies with either (§14).
 */
export function secretsInForce<S>(secrets: { current: S; previous?: S; previousExpiresAt?: string }, at: Date): S[] {
  const { current, previous, previousExpiresAt } = secrets;
  const previousValid = previous !== undefined && previousExpiresAt !== undefined && Date.parse(previousExpiresAt) > at.getTime();
  return previousValid ? [current, previous] : [current];
}

/**
 * The Standard Webhooks `v1` signature: base64 HMAC-SHA256 of `{id}.{unix seconds}.{body}`,
 * keyed with the base64-decoded secret after `whsec_`. node:crypto's HMAC is native; the
 * `standardwebhooks` package (its own SHA-256 and base64 in JavaScript, 11 KB of the delivery
 * bundle) verifies these signatures in the tests, as receivers do.
 */
export function webhookSignature(secret: string, id: string, unixSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SIGNING_SECRET_PREFIX) ? secret.slice(SIGNING_SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${unixSeconds}.${body}`).digest('base64')}`;
}

/** Where a delivery goes: a subscription's endpoint, or a per-object URL (refund, payment). */
export interface DeliveryTarget {
  /** Stable per event: the subscription id, or `url_` + a hash of the URL. */
  key: string;
  url: string;
  /** Set for subscription targets: its secret signs; per-object URLs use the org+mode secret. */
  subscriptionId?: string;
}

export function urlTargetKey(url: string): string {
  return `url_${createHash('sha256').update(url).digest('hex').slice(0, 24)}`;
}

/**
 * The targets of one event: every matching subscription of its organization and mode, plus
 * each distinct per-object URL. Every target is delivered (and retried) on its own.
 */
export function deliveryTargets(type: string, subscriptions: WebhookSubscription[], targetUrls: string[] = []): DeliveryTarget[] {
  const targets: DeliveryTarget[] = subscriptions
    .filter((subscription) => receives(subscription, type))
    .map((subscription) => ({ key: subscription.id, url: subscription.url, subscriptionId: subscription.id }));
  for (const url of new Set(targetUrls)) targets.push({ key: urlTargetKey(url), url });
  return targets;
}

/** What `webhook list` shows: never the secret. */
export function subscriptionSummary(subscription: WebhookSubscription) {
  return {
    id: subscription.id,
    org_id: subscription.orgId,
    mode: subscription.mode,
    url: subscription.url,
    events: subscription.events,
    description: subscription.description,
    status: subscription.status,
    created_at: subscription.createdAt,
  };
}
