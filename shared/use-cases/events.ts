import type { Principal } from '../auth/principal';
import type { DeliveryRepository } from '../db/delivery-repository';
import type { EventRepository } from '../db/event-repository';
import type { RateLimiter } from '../db/rate-limit';
import type { SubscriptionReads } from '../db/webhook-repository';
import { deliveryAttemptResource, isAttemptId } from '../domain/event-resources';
import { requireOwned } from '../domain/scope';
import { BusinessRuleError, TooManyRequestsError } from '../errors';
import { LIMITS } from '../limits';
import { isId } from '../ids';
import { pageRequest } from '../pagination';

export interface EventReadDeps {
  events: EventRepository;
  deliveries: Pick<DeliveryRepository, 'attemptPage'>;
}

export interface EventDeps {
  events: EventRepository;
  limiter: RateLimiter;
  deliveries: Pick<DeliveryRepository, 'requestResend'>;
  webhooks: Pick<SubscriptionReads, 'get'>;
}

const ownedEvent = async (events: EventRepository, principal: Principal, id: string) => requireOwned(await events.get(id), principal).envelope;

/** The events API's reads: an event, the list, an event's delivery attempts. */
export function eventReads({ events, deliveries }: EventReadDeps) {
  return {
    getEvent: (principal: Principal, id: string) => ownedEvent(events, principal, id),

    async listEvents(principal: Principal, query: { limit?: string; starting_after?: string; ending_before?: string; type?: string }) {
      const page = pageRequest(query, (value) => isId('event', value));
      const result = await events.list(principal, page, query.type);
      return { has_more: result.hasMore, data: result.items };
    },

    /** A page of the event's attempts, oldest first (time, endpoint, status code, duration). */
    async listDeliveries(principal: Principal, id: string, query: { limit?: string; starting_after?: string; ending_before?: string }) {
      const request = pageRequest(query, isAttemptId);
      await ownedEvent(events, principal, id);
      const page = await deliveries.attemptPage(id, request);
      return { has_more: page.hasMore, data: page.items.map(deliveryAttemptResource) };
    },
  };
}

/** The events API's writes: a resend. */
export function eventUseCases({ events, deliveries, webhooks, limiter }: EventDeps) {
  /** Resends are limited per event and per organization and mode (a fixed window each): 429 beyond. */
  async function takeResend(principal: Principal, eventId: string) {
    const { perEvent, perOrganization, windowSeconds } = LIMITS.resends;
    const wait =
      (await limiter.take(`resend#event#${eventId}`, perEvent, windowSeconds)) ??
      (await limiter.take(`resend#org#${principal.orgId}#${principal.mode}`, perOrganization, windowSeconds));
    if (wait !== undefined) throw new TooManyRequestsError(`Too many resends; retry after ${wait} seconds`, wait);
  }

  return {
    /**
     * Replays an event.
     * 1. The event must be the caller's (404 otherwise).
     * 2. With `subscription_id`, that subscription must be the caller's organization and mode,
     *    and enabled: a disabled one receives nothing (422).
     * 3. A replay request is written next to the event; the stream carries it to delivery.
     */
    async resend(principal: Principal, id: string, subscriptionId?: string) {
      await ownedEvent(events, principal, id);
      if (subscriptionId !== undefined) {
        const subscription = isId('webhook', subscriptionId) ? await webhooks.get(principal.orgId, principal.mode, subscriptionId) : undefined;
        if (!subscription) {
          throw new BusinessRuleError('subscription_id does not name a webhook subscription of this organization and mode', 'subscription_id');
        }
        if (subscription.status === 'disabled') throw new BusinessRuleError('subscription_id names a disabled webhook endpoint', 'subscription_id');
      }
      await takeResend(principal, id);
      const requested = await deliveries.requestResend(id, subscriptionId);
      return { object: 'event_resend' as const, id: requested.resendId, event_id: id, subscription_id: subscriptionId ?? null };
    },
  };
}
