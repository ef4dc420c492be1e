import type { Mode, Principal } from '../auth/principal';
import type { WebhookRepository } from '../db/webhook-repository';
import type { DeliveryAttempt, DeliveryLog } from '../domain/dashboard';
import {
  distinct,
  endpointChanges,
  ROLL_OVERLAP,
  type RollSecretBody,
  type WebhookEndpointCreateBody,
  type WebhookEndpointUpdateBody,
} from '../domain/webhook-endpoints';
import type { SubscriptionWithSecret, WebhookSubscription } from '../domain/webhooks';
import { NotFoundError } from '../errors';
import { isId } from '../ids';
import { pageRequest } from '../pagination';
import { isoMillis } from '../time';

export interface WebhookEndpointDeps {
  endpoints: Pick<WebhookRepository, 'create' | 'get' | 'page' | 'update' | 'rollSecret' | 'remove'>;
  /** Refuses (422) a URL deliveries could never reach from where the service runs (decisions §9). */
  checkUrl(url: string, attribute: string): Promise<void>;
  now: () => Date;
}

/** Whose endpoints: an API key's organization and mode, or the operator's `--org` and `--mode`. */
export interface EndpointOwner {
  orgId: string;
  mode: Mode;
}

/**
 * Webhook endpoints (product-decisions §14), one set of use cases for the API and for
 * `ops webhook create`. An endpoint is read and written by its full key (organization, mode,
 * id), so another organization's or mode's id is the same 404 as an unknown one, without a read.
 * Endpoint changes emit no events (docs/decisions.md).
 */
export function webhookEndpointUseCases(deps: WebhookEndpointDeps) {
  const { endpoints } = deps;
  const get = (principal: Principal, id: string) => endpointOf(endpoints, principal, id);

  /** A write to the caller's endpoint `id`: 404 when it names none (a malformed id writes nothing). */
  async function change<T extends WebhookSubscription>(principal: Principal, id: string, write: () => Promise<T | undefined>): Promise<T> {
    const changed = isId('webhook', id) ? await write() : undefined;
    if (!changed) throw new NotFoundError();
    return changed;
  }

  return {
    get,

    /**
     * 1. The URL must be deliverable from here (422, `url`); the body's rules were checked by
     *    its schema (patterns that match no event type: 422, `enabled_events`).
     * 2. One transaction creates it under the limit of its organization and mode (422 beyond).
     * The answer holds the secret: the only time it is shown, with a roll's.
     */
    async create(owner: EndpointOwner, body: WebhookEndpointCreateBody): Promise<SubscriptionWithSecret> {
      await deps.checkUrl(body.url, 'url');
      return endpoints.create({ ...owner, url: body.url, events: distinct(body.enabled_events), description: body.description ?? null });
    },

    list: (principal: Principal, query: ListQuery) => pageOfEndpoints(endpoints, principal, query),

    /** Any of url, enabled_events, description, status; an empty body is a 422, a new URL is checked like a new endpoint's. */
    async update(principal: Principal, id: string, body: WebhookEndpointUpdateBody): Promise<WebhookSubscription> {
      const changes = endpointChanges(body);
      if (changes.url !== undefined) await deps.checkUrl(changes.url, 'url');
      return change(principal, id, () => endpoints.update(principal.orgId, principal.mode, id, changes));
    },

    /** Deletes the endpoint; its queued deliveries are canceled at their next attempt. */
    async remove(principal: Principal, id: string): Promise<void> {
      const removed = isId('webhook', id) && (await endpoints.remove(principal.orgId, principal.mode, id));
      if (!removed) throw new NotFoundError();
    },

    /** A new secret; the current one keeps signing beside it for `expires_in_seconds` (default a day). */
    async rollSecret(principal: Principal, id: string, body: RollSecretBody): Promise<SubscriptionWithSecret> {
      const overlapSeconds = body.expires_in_seconds ?? ROLL_OVERLAP.defaultSeconds;
      const previousExpiresAt = isoMillis(deps.now().getTime() + overlapSeconds * 1000);
      return change(principal, id, () => endpoints.rollSecret(principal.orgId, principal.mode, id, previousExpiresAt));
    },
  };
}

export type WebhookEndpointUseCases = ReturnType<typeof webhookEndpointUseCases>;

/** The caller's endpoint, read by its full key; a malformed id is a 404 without a read. */
export async function endpointOf(endpoints: Pick<WebhookRepository, 'get'>, principal: Principal, id: string): Promise<WebhookSubscription> {
  const endpoint = isId('webhook', id) ? await endpoints.get(principal.orgId, principal.mode, id) : undefined;
  if (!endpoint) throw new NotFoundError();
  return endpoint;
}

type ListQuery = { limit?: string; starting_after?: string; ending_before?: string };

/** A page of the caller's endpoints, with the list rules (decisions §2). */
const pageOfEndpoints = (endpoints: Pick<WebhookRepository, 'page'>, principal: Principal, query: ListQuery) =>
  endpoints.page(principal, pageRequest(query, (value) => isId('webhook', value)));

/**
 * The dashboard's webhooks page: a page of the caller's endpoints, each with its `perEndpoint`
 * most recent delivery attempts, newest first (one Query per endpoint, in parallel; the
 * attempts' own failures marked by `succeeded`).
 */
export async function endpointsWithRecentDeliveries(
  deps: { endpoints: Pick<WebhookRepository, 'page'>; deliveries: Pick<DeliveryLog, 'attemptsOfEndpoint'> },
  principal: Principal,
  query: ListQuery,
  perEndpoint: number,
): Promise<{ items: { endpoint: WebhookSubscription; attempts: DeliveryAttempt[] }[]; hasMore: boolean }> {
  const page = await pageOfEndpoints(deps.endpoints, principal, query);
  const items = await Promise.all(
    page.items.map(async (endpoint) => ({ endpoint, attempts: await deps.deliveries.attemptsOfEndpoint(endpoint.id, perEndpoint) })),
  );
  return { items, hasMore: page.hasMore };
}
