import type { Principal, Scope } from '../auth/principal';
import { BusinessRuleError, PermissionDeniedError } from '../errors';
import { ID_PREFIXES, type IdKind } from '../ids';
import type { Chargeback } from './chargebacks';

/**
 * The dashboard's reads: the overview of an organization and mode, its lists, pages and search.
 * Pure rules and the narrow interfaces the use cases need; the adapters live in shared/db, the
 * HTML in shared/dashboard. People, sessions and roles: shared/domain/team.ts, team-roles.ts.
 */

/** The read scope each section needs; a caller sees the sections it holds the scope for. */
export const SECTION_SCOPES = {
  paymentLinks: 'payment_link:read',
  payments: 'payment:read',
  refunds: 'refund:read',
  chargebacks: 'chargeback:read',
} as const satisfies Record<string, Scope>;

/**
 * Events and webhook deliveries need `event:read`, as `GET /v1/events` and its deliveries do
 * (undefined would show them to every caller).
 */
export const DELIVERIES_SCOPE: Scope | undefined = 'event:read';

/** The webhooks pages read and write as `GET` and `POST /v1/webhook_endpoints…` do. */
export const WEBHOOK_SCOPES = { read: 'webhook:read', write: 'webhook:write' } as const satisfies Record<string, Scope>;

/** The settlements pages read as `GET /v1/settlements…` (live keys only). */
export const SETTLEMENT_SCOPE = 'settlement:read' satisfies Scope;

/** The balance and its movements read as `GET /v1/balance` and `GET /v1/balance_transactions` do. */
export const BALANCE_SCOPE = 'balance:read' satisfies Scope;

/** Each section shows at most this many rows, newest first (soonest deadline first for chargebacks). */
export const SECTION_LIMIT = 20;
/** Open chargebacks are picked from this many most recent chargebacks (one Query). */
export const CHARGEBACK_WINDOW = 100;
/** Webhook deliveries are the attempts of this many most recent events of the scope. */
export const DELIVERY_EVENT_WINDOW = 25;

/** One webhook delivery attempt, as the delivery-attempt items (`EVT#{event}` / `DLV#…`) hold it. */
export interface DeliveryAttempt {
  eventId: string;
  eventType: string;
  attemptedAt: string;
  url: string;
  statusCode?: number;
  durationMs?: number;
  error?: string;
  succeeded: boolean;
}

/** An event with its delivery attempts, newest attempt first. */
export interface EventDeliveries {
  id: string;
  type: string;
  triggeredAt: string;
  attempts: DeliveryAttempt[];
}

/** Port: webhook delivery attempts as the webhook delivery stores them. */
export interface DeliveryLog {
  /** The most recent delivery attempts of the caller's organization and mode, newest first. */
  recentDeliveries(principal: Principal, limit: number): Promise<DeliveryAttempt[]>;
  /** The attempts of one event, newest first (at most ATTEMPTS_PER_EVENT). */
  attemptsOf(eventId: string, eventType: string): Promise<DeliveryAttempt[]>;
  /** The `limit` most recent attempts to one webhook endpoint (subscription), newest first. */
  attemptsOfEndpoint(endpointId: string, limit: number): Promise<DeliveryAttempt[]>;
  /**
   * The `transactions.payment_link.*` events about one link, newest first, created since the link
   * (`sinceId`: an event id bound at its creation time), `limit` of them after `startingAfter`;
   * reads at most LINK_EVENT_WINDOW events of that family per call.
   */
  linkEvents(principal: Principal, linkId: string, sinceId: string, limit: number, startingAfter?: string): Promise<LinkEvents>;
}

/** A page of a link's events: `next` is where the next read starts (`undefined`: none left). */
export interface LinkEvents {
  events: { id: string; type: string; triggeredAt: string }[];
  next?: string;
}

/** A link's events are looked for among at most this many events of the link family per page. */
export const LINK_EVENT_WINDOW = 500;

/** One section of the overview: its rows, or the scope the caller lacks to see them. */
export type Section<T> = { allowed: true; items: T[]; more: boolean } | { allowed: false; scope: Scope };

export function canSee(principal: Principal, scope: Scope | undefined): boolean {
  return scope === undefined || principal.scopes.includes(scope);
}

/** The API's own refusal (shared/auth/authenticate.ts words it the same for a key): 403 without the scope. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (principal.scopes.includes(scope)) return;
  throw new PermissionDeniedError(principal.actor.type === 'user' ? `Your role does not include the scope ${scope}` : `The API key lacks the scope ${scope}`);
}

/** The open ones, soonest deadline first (ties: newest first, as listed). */
export function openBySoonestDeadline(chargebacks: Chargeback[]): Chargeback[] {
  return chargebacks
    .filter((chargeback) => chargeback.status === 'open')
    .sort((a, b) => Date.parse(a.deadlineAt) - Date.parse(b.deadlineAt));
}

/** Newest attempt first. */
export function newestAttemptsFirst(attempts: DeliveryAttempt[]): DeliveryAttempt[] {
  return [...attempts].sort((a, b) => (a.attemptedAt < b.attemptedAt ? 1 : a.attemptedAt > b.attemptedAt ? -1 : 0));
}

// ---------------------------------------------------------------------------------------------
// Paid volume per day

/** The chart covers this many days: today (UTC) and the 29 before it. */
export const PAID_VOLUME_DAYS = 30;
/**
 * The chart reads at most this many paid payments (newest first); beyond, the oldest days of
 * the window are incomplete and the chart says from which day it is complete.
 */
export const PAID_VOLUME_MAX_PAYMENTS = 20_000;

/** What the chart needs of a paid payment. */
export interface PaidAmount {
  id: string;
  amountMinor: number;
  currency: string;
  paidAt: string;
}

/** Port: the scope's paid payments created from `sinceId` on (an id bound), newest first, at most `max`. */
export interface PaidPayments {
  paidSince(principal: Principal, sinceId: string, max: number): Promise<{ payments: PaidAmount[]; complete: boolean }>;
}

export interface DayVolume {
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  minor: number;
  count: number;
}

export interface CurrencyVolume {
  currency: string;
  days: DayVolume[];
  totalMinor: number;
  count: number;
}

export interface PaidVolume {
  from: string;
  to: string;
  /** One per currency that was paid in the window, the largest total first. */
  currencies: CurrencyVolume[];
  /** Set when the read stopped at PAID_VOLUME_MAX_PAYMENTS: the days before this one are incomplete. */
  completeFrom?: string;
}

const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first instant of the window: midnight UTC, PAID_VOLUME_DAYS - 1 days before today. */
export function paidVolumeStart(now: Date): Date {
  return new Date(Date.parse(utcDate(now.getTime())) - (PAID_VOLUME_DAYS - 1) * DAY_MS);
}

/**
 * Sums paid payments per UTC day of their `paidAt`, per currency, over the window ending today;
 * every day of the window is present (zero when nothing was paid).
 */
export function paidVolumeByDay(payments: PaidAmount[], now: Date, complete = true): PaidVolume {
  const start = paidVolumeStart(now).getTime();
  const dates = Array.from({ length: PAID_VOLUME_DAYS }, (_, day) => utcDate(start + day * DAY_MS));
  const byCurrency = new Map<string, Map<string, DayVolume>>();
  for (const payment of payments) {
    const date = payment.paidAt.slice(0, 10);
    if (!dates.includes(date)) continue;
    const days = byCurrency.get(payment.currency) ?? new Map(dates.map((day) => [day, { date: day, minor: 0, count: 0 }]));
    byCurrency.set(payment.currency, days);
    const day = days.get(date)!;
    day.minor += payment.amountMinor;
    day.count += 1;
  }
  const currencies = [...byCurrency].map(([currency, days]) => {
    const list = [...days.values()];
    return { currency, days: list, totalMinor: list.reduce((sum, day) => sum + day.minor, 0), count: list.reduce((sum, day) => sum + day.count, 0) };
  });
  currencies.sort((a, b) => b.totalMinor - a.totalMinor || a.currency.localeCompare(b.currency));
  const oldest = payments.at(-1);
  return {
    from: dates[0],
    to: dates.at(-1)!,
    currencies,
    // The oldest day read may be partial: the chart is whole from the next day on.
    ...(!complete && oldest ? { completeFrom: utcDate(Date.parse(oldest.paidAt.slice(0, 10)) + DAY_MS) } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Search by id

/** The objects a search by id finds, by their id prefix: the dashboard path of their pages, and what they are called. */
export const SEARCHABLE = {
  paymentLink: { path: 'payment-links', name: 'a payment link' },
  payment: { path: 'payments', name: 'a payment' },
  refund: { path: 'refunds', name: 'a refund' },
  chargeback: { path: 'chargebacks', name: 'a chargeback' },
  event: { path: 'events', name: 'an event' },
  webhook: { path: 'webhooks', name: 'a webhook endpoint' },
  settlement: { path: 'settlements', name: 'a settlement' },
} as const satisfies Partial<Record<IdKind, { path: string; name: string }>>;
export type SearchableKind = keyof typeof SEARCHABLE;

const SEARCHABLE_KINDS = Object.keys(SEARCHABLE) as SearchableKind[];
const SEARCH_TAKES = `Search takes the id of ${SEARCHABLE_KINDS.map((kind) => `${SEARCHABLE[kind].name} (${ID_PREFIXES[kind]}_…)`)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1')}`;

/** Which kind of object an id names, by its prefix; anything else is a 422 on `id`. */
export function searchKind(id: string): SearchableKind {
  const kind = SEARCHABLE_KINDS.find((candidate) => id.startsWith(`${ID_PREFIXES[candidate]}_`));
  if (!kind) throw new BusinessRuleError(SEARCH_TAKES, 'id');
  return kind;
}
