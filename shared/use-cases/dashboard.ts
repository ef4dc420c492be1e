import type { Principal, Scope } from '../auth/principal';
import type { LedgerReads } from '../db/balance';
import type { ChargebackRepository } from '../db/chargeback-repository';
import type { Acceptor } from '../db/directory-lookups';
import type { EventRepository } from '../db/event-repository';
import type { SettlementRepository } from '../db/settlement-repository';
import type { WebhookRepository } from '../db/webhook-repository';
import type { Page } from '../db/list-page';
import type { PaymentLinkRepository } from '../db/payment-link-repository';
import type { VersionedLink } from '../domain/payment-links';
import type { PaymentRepository } from '../db/payment-repository';
import type { RefundRepository } from '../db/refund-repository';
import type { BalanceTransaction, BalanceTransactionType, CurrencyBalance } from '../domain/balance';
import type { CustomerEmailIndex } from '../domain/customer-emails';
import type { Chargeback } from '../domain/chargebacks';
import {
  CHARGEBACK_WINDOW,
  BALANCE_SCOPE,
  DELIVERIES_SCOPE,
  PAID_VOLUME_MAX_PAYMENTS,
  SECTION_LIMIT,
  SECTION_SCOPES,
  SETTLEMENT_SCOPE,
  WEBHOOK_SCOPES,
  canSee,
  openBySoonestDeadline,
  paidVolumeByDay,
  paidVolumeStart,
  requireScope,
  searchKind,
  type DeliveryAttempt,
  type DeliveryLog,
  type EventDeliveries,
  type PaidPayments,
  type PaidVolume,
  type SearchableKind,
  type Section,
} from '../domain/dashboard';
import type { Payment } from '../domain/payments';
import type { Refund } from '../domain/refunds';
import { requireOwned, type Owned } from '../domain/scope';
import { isRecordId, isSettlementCursor, type RecordType, type Settlement, type StoredRecord } from '../domain/settlements';
import type { WebhookSubscription } from '../domain/webhooks';
import type { EventEnvelope } from '../events';
import { endpointOf, endpointsWithRecentDeliveries } from './webhook-endpoints';
import { paymentListFilter, type PaymentListQuery } from './payments';
import { BusinessRuleError, NotFoundError } from '../errors';
import { firstIdAt, isId, type IdKind } from '../ids';
import { pageRequest, type PageRequest } from '../pagination';

export interface DashboardDeps {
  links: Pick<PaymentLinkRepository, 'list' | 'get'>;
  payments: Pick<PaymentRepository, 'list' | 'get' | 'listOfLink'>;
  refunds: Pick<RefundRepository, 'list' | 'get' | 'listOfPayment'>;
  chargebacks: Pick<ChargebackRepository, 'list' | 'get' | 'listOfPayment'>;
  events: Pick<EventRepository, 'list' | 'get'>;
  endpoints: Pick<WebhookRepository, 'get' | 'page'>;
  settlements: Pick<SettlementRepository, 'list' | 'find' | 'listRecords' | 'allRecords'>;
  deliveries: DeliveryLog;
  paidPayments: PaidPayments;
  ledger: Pick<LedgerReads, 'balances' | 'list'>;
  customerEmails: CustomerEmailIndex;
  acceptors: (orgId: string) => Promise<Acceptor[]>;
  now: () => Date;
}

/** The list parameters of a dashboard page: the API's, with the page size of the overview's sections. */
export type ListParams = { limit?: string; starting_after?: string; ending_before?: string };
/** A list's parameters with the creation range (product-decisions §18). */
export type CreatedListParams = ListParams & { 'created[gte]'?: string; 'created[lt]'?: string };
/** A list's parameters with the creation range and a status. */
export type StatusListParams = CreatedListParams & { status?: string };

/** A payment's page shows at most this many of its chargebacks (one Query), the newest. */
export const PAYMENT_CHARGEBACKS = 100;
/** An endpoint shows this many of its most recent delivery attempts: on the webhooks page, and on its own page. */
export const ENDPOINT_ATTEMPTS = { list: 5, page: 50 } as const;
/**
 * A settlement's CSV is one response: at most this many records (about 120 bytes a row, 2.4 MB,
 * far inside Lambda's 6 MB answer, and read within the function's timeout). A larger settlement
 * is refused (422) with the count.
 */
export const SETTLEMENT_CSV_MAX_RECORDS = 20_000;

/** A page of a list with the request that read it (its paging links depend on the direction). */
export interface ListView<T> extends Page<T> {
  request: PageRequest;
}

/** One payment link's page: its fields, a page of its payments, and (with `event:read`) its events. */
export interface LinkView {
  link: VersionedLink;
  payments: ListView<Payment>;
  events: Section<EventDeliveries> & { next?: string; after?: string };
}

/** One payment's page: the payment, (with `refund:read`) a page of its refunds and (with `chargeback:read`) its chargebacks. */
export interface PaymentView {
  payment: Payment;
  refunds: (ListView<Refund> & { allowed: true }) | { allowed: false; scope: 'refund:read' };
  /** `more`: it has more than PAYMENT_CHARGEBACKS, the newest shown. */
  chargebacks: Section<Chargeback>;
}

/** An event's page: its envelope as webhooks deliver it, and every delivery attempt (newest first). */
export interface EventView {
  envelope: EventEnvelope;
  attempts: DeliveryAttempt[];
}

/** An endpoint with its most recent delivery attempts (with `event:read`; else the scope it lacks). */
export interface EndpointDeliveries {
  endpoint: WebhookSubscription;
  attempts: Section<DeliveryAttempt>;
}

/** A settlement's page: it, and a page of its records (of one type when `type` is set). */
export interface SettlementView {
  settlement: Settlement;
  records: ListView<StoredRecord>;
  type?: RecordType;
}

export interface Overview {
  principal: Principal;
  paymentLinks: Section<VersionedLink>;
  payments: Section<Payment>;
  refunds: Section<Refund>;
  /** `more`: the chargebacks checked were only the most recent CHARGEBACK_WINDOW. */
  chargebacks: Section<Chargeback>;
  deliveries: Section<DeliveryAttempt>;
  /** Every currency's balance (`balance:read`). */
  balance: Section<CurrencyBalance>;
}

/**
 * The ports one use case needs. Each page's function names only its own, so the composition
 * root wires only those and a page's bundle holds no other adapter (docs/benchmarks.md).
 */
type Needs<K extends keyof DashboardDeps> = Pick<DashboardDeps, K>;

/** A section's rows, or the scope the caller lacks to see them. */
async function section<T>(principal: Principal, scope: Scope | undefined, read: () => Promise<{ items: T[]; more: boolean }>) {
  if (!canSee(principal, scope)) return { allowed: false, scope: scope! } as Section<T>;
  return { allowed: true, ...(await read()) } as Section<T>;
}

async function newest<T>(list: Promise<{ items: T[]; hasMore: boolean }>) {
  const page = await list;
  return { items: page.items, more: page.hasMore };
}

/**
 * The API's list rules (shared/pagination.ts) with the dashboard's page size as the default; a
 * cursor must be an id of `kind` (or pass the list's own cursor rule).
 */
const requestOf = (query: ListParams, kind: IdKind | ((cursor: string) => boolean)) =>
  pageRequest({ ...query, limit: query.limit ?? String(SECTION_LIMIT) }, typeof kind === 'function' ? kind : (value) => isId(kind, value));

async function listOf<T>(
  principal: Principal,
  scope: Scope,
  kind: IdKind | ((cursor: string) => boolean),
  query: ListParams,
  read: (request: PageRequest) => Promise<Page<T>>,
) {
  requireScope(principal, scope);
  const request = requestOf(query, kind);
  return { ...(await read(request)), request } as ListView<T>;
}

/** Events with their attempts: one Query per event, in parallel. */
const withAttempts = (deliveries: DeliveryLog, events: { id: string; type: string; triggeredAt: string }[]): Promise<EventDeliveries[]> =>
  Promise.all(events.map(async (event) => ({ ...event, attempts: await deliveries.attemptsOf(event.id, event.type) })));

/** One object as its retrieve operation reads it: 403 without the scope, else 404 unless the caller's. */
async function retrieve<T extends Owned>(principal: Principal, scope: Scope, get: (id: string) => Promise<T | undefined>, id: string): Promise<T> {
  requireScope(principal, scope);
  return requireOwned(await get(id), principal);
}

/**
 * Every section at once, each one Query (deliveries: see the DeliveryLog adapter), each
 * capped at SECTION_LIMIT rows and only for the scopes the key holds:
 * 1. payment links, payments and refunds: the newest, as their API lists return them;
 * 2. chargebacks: the open ones among the CHARGEBACK_WINDOW most recent, soonest deadline first;
 * 3. webhook deliveries: the most recent attempts, newest first;
 * 4. the balance of every currency, as `GET /v1/balance` reads it.
 */
export async function overview(deps: Needs<'links' | 'payments' | 'refunds' | 'chargebacks' | 'deliveries' | 'ledger'>, principal: Principal): Promise<Overview> {
  const page = { limit: SECTION_LIMIT };
  const [paymentLinks, payments, refunds, chargebacks, deliveries, balance] = await Promise.all([
    section(principal, SECTION_SCOPES.paymentLinks, () => newest(deps.links.list(principal, page))),
    section(principal, SECTION_SCOPES.payments, () => newest(deps.payments.list(principal, page))),
    section(principal, SECTION_SCOPES.refunds, () => newest(deps.refunds.list(principal, page))),
    section(principal, SECTION_SCOPES.chargebacks, async () => {
      const recent = await deps.chargebacks.list(principal, { limit: CHARGEBACK_WINDOW });
      return { items: openBySoonestDeadline(recent.items).slice(0, SECTION_LIMIT), more: recent.hasMore };
    }),
    section(principal, DELIVERIES_SCOPE, async () => ({
      items: await deps.deliveries.recentDeliveries(principal, SECTION_LIMIT),
      more: false,
    })),
    section(principal, BALANCE_SCOPE, async () => ({ items: await deps.ledger.balances(principal), more: false })),
  ]);
  return { principal, paymentLinks, payments, refunds, chargebacks, deliveries, balance };
}

/**
 * Paid volume per day of the last PAID_VOLUME_DAYS days (`payment:read`): one Query of the
 * scope's paid payments created since the window's first day (GSI2, by id, so by creation
 * time), at most PAID_VOLUME_MAX_PAYMENTS, summed per UTC day of `paid_at` and currency.
 */
export async function paidVolume(deps: Needs<'paidPayments' | 'now'>, principal: Principal): Promise<Section<PaidVolume>> {
  return section(principal, SECTION_SCOPES.payments, async () => {
    const now = deps.now();
    const since = firstIdAt('payment', paidVolumeStart(now).getTime());
    const { payments, complete } = await deps.paidPayments.paidSince(principal, since, PAID_VOLUME_MAX_PAYMENTS);
    return { items: [paidVolumeByDay(payments, now, complete)], more: !complete };
  });
}

/** The lists of the dashboard, each with its read scope and the API's list rules. */
export const paymentLinkList = (deps: Needs<'links'>, principal: Principal, query: ListParams) =>
  listOf(principal, SECTION_SCOPES.paymentLinks, 'paymentLink', query, (request) => deps.links.list(principal, request));
/** Payments with the filters of `GET /v1/payments` (product-decisions §18). */
export const paymentList = (deps: Needs<'payments' | 'customerEmails'>, principal: Principal, query: PaymentListQuery) =>
  listOf(principal, SECTION_SCOPES.payments, 'payment', query, async (request) => deps.payments.list(principal, request, await paymentListFilter(deps, query)));
export const refundList = (deps: Needs<'refunds'>, principal: Principal, query: StatusListParams) =>
  listOf(principal, SECTION_SCOPES.refunds, 'refund', query, (request) => deps.refunds.list(principal, request, query.status));
export const chargebackList = (deps: Needs<'chargebacks'>, principal: Principal, query: StatusListParams) =>
  listOf(principal, SECTION_SCOPES.chargebacks, 'chargeback', query, (request) => deps.chargebacks.list(principal, request, query.status));
/** The balance page: every currency's balance. */
export interface BalanceView {
  balances: CurrencyBalance[];
  movements: ListView<BalanceTransaction>;
}

/** The balance page's query: the list parameters and the filters of `GET /v1/balance_transactions`. */
export type BalanceMovementParams = CreatedListParams & { type?: BalanceTransactionType; source?: string };

/**
 * The balance page (`balance:read`): every currency's balance as `GET /v1/balance` reads it, and
 * a page of the movements behind them as `GET /v1/balance_transactions` lists them (with its
 * filters), newest first.
 */
export async function balanceView(deps: Needs<'ledger'>, principal: Principal, query: BalanceMovementParams): Promise<BalanceView> {
  requireScope(principal, BALANCE_SCOPE);
  const [balances, movements] = await Promise.all([
    deps.ledger.balances(principal),
    listOf(principal, BALANCE_SCOPE, 'balanceTransaction', query, (request) => deps.ledger.list(principal, request, { type: query.type, source: query.source })),
  ]);
  return { balances, movements };
}
/** Events (`event:read`, as `GET /v1/events`), each with its delivery attempts. */
export const eventList = (deps: Needs<'events' | 'deliveries'>, principal: Principal, query: ListParams) =>
  listOf(principal, DELIVERIES_SCOPE!, 'event', query, async (request) => {
    const page = await deps.events.list(principal, request);
    const events = await withAttempts(deps.deliveries, page.items.map((event) => ({ id: event.id, type: event.type, triggeredAt: event.triggered_at })));
    return { items: events, hasMore: page.hasMore };
  });

/**
 * A link's page (`payment_link:read`, 404 unless the caller's):
 * 1. the link;
 * 2. a page of its payments (`query`: the list parameters);
 * 3. with `event:read`, a page of its events (`eventsAfter`: the cursor), each with its attempts.
 */
export async function paymentLinkView(
  deps: Needs<'links' | 'payments' | 'deliveries'>,
  principal: Principal,
  id: string,
  query: ListParams & { events_after?: string },
): Promise<LinkView> {
  const link = await retrieve(principal, SECTION_SCOPES.paymentLinks, deps.links.get, id);
  const { events_after: eventsAfter, ...list } = query;
  const eventRequest = requestOf({ starting_after: eventsAfter }, 'event');
  const [payments, events] = await Promise.all([
    listOf(principal, SECTION_SCOPES.paymentLinks, 'payment', list, (request) => deps.payments.listOfLink(link.id, request)),
    section(principal, DELIVERIES_SCOPE, async () => {
      const since = firstIdAt('event', Date.parse(link.createdAt));
      const found = await deps.deliveries.linkEvents(principal, link.id, since, eventRequest.limit, eventRequest.startingAfter);
      return { items: await withAttempts(deps.deliveries, found.events), more: found.next !== undefined, next: found.next };
    }),
  ]);
  return { link, payments, events: { ...events, ...(eventsAfter ? { after: eventsAfter } : {}) } as LinkView['events'] };
}

/**
 * A payment's page (`payment:read`, 404 unless the caller's) with a page of its refunds
 * (`refund:read`, as `GET /v1/payments/{id}/refunds`) and its newest chargebacks
 * (`chargeback:read`, as `GET /v1/payments/{id}/chargebacks`: one Query).
 */
export async function paymentView(deps: Needs<'payments' | 'refunds' | 'chargebacks'>, principal: Principal, id: string, query: ListParams): Promise<PaymentView> {
  const payment = await retrieve(principal, SECTION_SCOPES.payments, deps.payments.get, id);
  const [refunds, chargebacks] = await Promise.all([
    canSee(principal, SECTION_SCOPES.refunds)
      ? listOf(principal, SECTION_SCOPES.refunds, 'refund', query, (request) => deps.refunds.listOfPayment(payment.id, request)).then((page) => ({ ...page, allowed: true as const }))
      : { allowed: false as const, scope: SECTION_SCOPES.refunds },
    section(principal, SECTION_SCOPES.chargebacks, () => newest(deps.chargebacks.listOfPayment(payment.id, { limit: PAYMENT_CHARGEBACKS }))),
  ]);
  return { payment, refunds, chargebacks };
}

/** One chargeback of the caller (`chargeback:read`, as `GET /v1/chargebacks/{id}`: organization-wide), else 404. */
export const chargebackView = (deps: Needs<'chargebacks'>, principal: Principal, id: string): Promise<Chargeback> =>
  retrieve(principal, SECTION_SCOPES.chargebacks, deps.chargebacks.get, id);

/** One event of the caller (`event:read`, as `GET /v1/events/{id}`), with its delivery attempts. */
export async function eventView(deps: Needs<'events' | 'deliveries'>, principal: Principal, id: string): Promise<EventView> {
  const { envelope } = await retrieve(principal, DELIVERIES_SCOPE!, deps.events.get, id);
  return { envelope, attempts: await deps.deliveries.attemptsOf(envelope.id, envelope.type) };
}

/** An endpoint's recent attempts: `event:read`, the scope that shows deliveries over the API. */
const attemptsSection = (principal: Principal, read: () => Promise<DeliveryAttempt[]>) =>
  section(principal, DELIVERIES_SCOPE, async () => ({ items: await read(), more: false }));

/**
 * The webhooks page (`webhook:read`, as `GET /v1/webhook_endpoints`): a page of the caller's
 * endpoints, each with its ENDPOINT_ATTEMPTS.list most recent attempts (`event:read`).
 */
export async function endpointList(deps: Needs<'endpoints' | 'deliveries'>, principal: Principal, query: ListParams): Promise<ListView<EndpointDeliveries & { id: string }>> {
  requireScope(principal, WEBHOOK_SCOPES.read);
  const request = requestOf(query, 'webhook');
  if (!canSee(principal, DELIVERIES_SCOPE)) {
    const page = await deps.endpoints.page(principal, request);
    const attempts = { allowed: false, scope: DELIVERIES_SCOPE! } as const;
    return { items: page.items.map((endpoint) => ({ id: endpoint.id, endpoint, attempts })), hasMore: page.hasMore, request };
  }
  const page = await endpointsWithRecentDeliveries({ endpoints: deps.endpoints, deliveries: deps.deliveries }, principal, query, ENDPOINT_ATTEMPTS.list);
  return {
    items: page.items.map(({ endpoint, attempts }) => ({ id: endpoint.id, endpoint, attempts: { allowed: true, items: attempts, more: false } })),
    hasMore: page.hasMore,
    request,
  };
}

/** An endpoint's page (`webhook:read`, as `GET /v1/webhook_endpoints/{id}`), with its ENDPOINT_ATTEMPTS.page most recent attempts. */
export async function endpointView(deps: Needs<'endpoints' | 'deliveries'>, principal: Principal, id: string): Promise<EndpointDeliveries> {
  requireScope(principal, WEBHOOK_SCOPES.read);
  const endpoint = await endpointOf(deps.endpoints, principal, id);
  return { endpoint, attempts: await attemptsSection(principal, () => deps.deliveries.attemptsOfEndpoint(endpoint.id, ENDPOINT_ATTEMPTS.page)) };
}

/**
 * Settlements exist in live mode only (product-decisions §8): a test key's settlement page says
 * so, and its settlement pages are the one 404 (as the API's `mode: 'live'` routes answer).
 */
export const settlementsExist = (principal: Principal) => principal.mode === 'live';

/** The caller's settlement by its code or `stl_` id (`settlement:read`, as `GET /v1/settlements/{code}`), else 404. */
async function settlementOf(deps: Needs<'settlements'>, principal: Principal, codeOrId: string): Promise<Settlement> {
  requireScope(principal, SETTLEMENT_SCOPE);
  if (!settlementsExist(principal)) throw new NotFoundError();
  return requireOwned(await deps.settlements.find(principal, codeOrId), principal);
}

/** Settlements, newest first (`settlement:read`, live keys: `GET /v1/settlements`). */
export const settlementList = (deps: Needs<'settlements'>, principal: Principal, query: ListParams) =>
  listOf(principal, SETTLEMENT_SCOPE, isSettlementCursor, query, (request) => deps.settlements.list(principal, request));

/**
 * A settlement's page: it and a page of its records, newest first by transaction time, of one
 * `type` when given (`GET /v1/settlements/{code}/records`, its query parsed by the caller with that operation's schema).
 */
export async function settlementView(deps: Needs<'settlements'>, principal: Principal, codeOrId: string, query: ListParams & { type?: RecordType }): Promise<SettlementView> {
  const { type, ...list } = query;
  const request = requestOf(list, isRecordId);
  const settlement = await settlementOf(deps, principal, codeOrId);
  const records = await deps.settlements.listRecords(settlement, request, type);
  return { settlement, records: { ...records, request }, ...(type ? { type } : {}) };
}

/**
 * Every record of a settlement, for its CSV (the `ops settlement export` rows): at most
 * SETTLEMENT_CSV_MAX_RECORDS, counted before anything is read (422 beyond).
 */
export async function settlementRecords(deps: Needs<'settlements'>, principal: Principal, codeOrId: string): Promise<{ settlement: Settlement; records: StoredRecord[] }> {
  const settlement = await settlementOf(deps, principal, codeOrId);
  if (settlement.recordCount > SETTLEMENT_CSV_MAX_RECORDS) {
    throw new BusinessRuleError(
      `This settlement has ${settlement.recordCount} records; a download holds at most ${SETTLEMENT_CSV_MAX_RECORDS}: page through them here, or ask for the export`,
    );
  }
  return { settlement, records: await deps.settlements.allRecords(settlement) };
}

/** One refund of the caller (`links.dashboard` of the refund object): 403 without refund:read, else 404 unless owned. */
export const refundView = (deps: Needs<'refunds'>, principal: Principal, id: string): Promise<Refund> =>
  retrieve(principal, SECTION_SCOPES.refunds, deps.refunds.get, id);

/** Where an id leads: its kind by prefix (422 otherwise), then the object, read as its page reads it (403, 404). */
export async function search(
  deps: Needs<'links' | 'payments' | 'refunds' | 'chargebacks' | 'events' | 'endpoints' | 'settlements'>,
  principal: Principal,
  id: string,
): Promise<SearchableKind> {
  const kind = searchKind(id);
  const readers: Record<SearchableKind, () => Promise<unknown>> = {
    paymentLink: () => retrieve(principal, SECTION_SCOPES.paymentLinks, deps.links.get, id),
    payment: () => retrieve(principal, SECTION_SCOPES.payments, deps.payments.get, id),
    refund: () => refundView(deps, principal, id),
    chargeback: () => chargebackView(deps, principal, id),
    event: () => retrieve(principal, DELIVERIES_SCOPE!, deps.events.get, id),
    webhook: () => {
      requireScope(principal, WEBHOOK_SCOPES.read);
      return endpointOf(deps.endpoints, principal, id);
    },
    settlement: () => settlementOf(deps, principal, id),
  };
  await readers[kind]();
  return kind;
}

/** The acceptors a new link may name: the key's own when it is bound to one, else the organization's. */
export async function acceptorChoices(deps: Needs<'acceptors'>, principal: Principal): Promise<Acceptor[]> {
  const all = await deps.acceptors(principal.orgId);
  return principal.acceptorId ? all.filter((acceptor) => acceptor.id === principal.acceptorId) : all;
}
