import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import type { ApiOperation, PageRoute } from '../api/operation';
import type { ApiEvent } from '../http/response';
import type { SignIns } from '../use-cases/sign-in';
import type { EventDeliveries } from '../domain/dashboard';
import type { Chargeback } from '../domain/chargebacks';
import type { VersionedLink } from '../domain/payment-links';
import type { Payment } from '../domain/payments';
import type { Refund } from '../domain/refunds';
import {
  chargebackList,
  eventList,
  paymentLinkList,
  paymentList,
  refundList,
  type ListParams,
  type ListView,
} from '../use-cases/dashboard';
import { dashboardPage } from './http';
import { may, type Frame, type NavPath, type TableSpec } from './html';
import { listPage } from './pages';
import { chargebackTable, eventTable, linkTable, paymentTable, refundTable } from './tables';
import { escapeHtml } from '../http/page';
import { listChargebacks } from '../api/chargebacks';
import { listPayments } from '../api/payments';
import { listRefunds } from '../api/refunds';
import { filteredQueryOf, filterValues } from './filters';
import { EXPORT_FORM, exportForm } from './reports';
import type { ReportType } from '../domain/reports';

/** The list parameters of a page's query string (others are ignored, as on the API's retrieves). */
export function listQueryOf(event: ApiEvent): ListParams {
  const { limit, starting_after, ending_before } = event.queryStringParameters ?? {};
  return { limit, starting_after, ending_before };
}

/** A link page's query: its payments' list parameters and its events' cursor. */
export const linkQueryOf = (event: ApiEvent) => ({ ...listQueryOf(event), events_after: event.queryStringParameters?.events_after });

interface ListDefinition<T extends { id: string }, D, Q = ListParams> {
  title: string;
  nav: NavPath;
  caption: string;
  empty: string;
  spec: (urls: PublicUrls) => TableSpec<T>;
  /** The list's use case, with the ports it needs. */
  read: (deps: D, principal: Principal, query: Q) => Promise<ListView<T>>;
  actions?: (frame: Frame) => string;
  /** The `/v1` list it shows with its filters (product-decisions §18): its query is read with that operation's schema. */
  filters?: ApiOperation;
  /** The report type of its Export button (product-decisions §18). */
  exports?: ReportType;
}

/*
 * The list pages of the dashboard: each reads its list use case with the API's list rules. One
 * constant each, so a list's function carries only its own table and adapters.
 */

export const PAYMENT_LINK_LIST: ListDefinition<VersionedLink, Parameters<typeof paymentLinkList>[0]> = {
  title: 'Payment links',
  nav: '/payment-links',
  caption: 'Payment links, newest first.',
  empty: 'No payment links yet.',
  spec: linkTable,
  read: paymentLinkList,
  actions: (frame) =>
    may(frame, 'payment_link:create')
      ? `<div class="actions-row"><a class="button primary" href="${escapeHtml(`${frame.urls.dashboard}/payment-links/new`)}">Create a payment link</a></div>`
      : '',
};

export const PAYMENT_LIST: ListDefinition<Payment, Parameters<typeof paymentList>[0], Parameters<typeof paymentList>[2]> = {
  title: 'Payments',
  nav: '/payments',
  caption: 'Payments, newest first.',
  empty: 'No payments yet.',
  spec: paymentTable,
  read: paymentList,
  filters: listPayments,
  exports: 'payments',
};

export const REFUND_LIST: ListDefinition<Refund, Parameters<typeof refundList>[0], Parameters<typeof refundList>[2]> = {
  title: 'Refunds',
  nav: '/refunds',
  caption: 'Refunds, newest first; refunds waiting for the balance are marked On hold.',
  empty: 'No refunds yet.',
  spec: refundTable,
  read: refundList,
  filters: listRefunds,
  exports: 'refunds',
};

export const CHARGEBACK_LIST: ListDefinition<Chargeback, Parameters<typeof chargebackList>[0], Parameters<typeof chargebackList>[2]> = {
  title: 'Chargebacks',
  nav: '/chargebacks',
  caption: 'Chargebacks, newest first; respond to open ones before their deadline or they are accepted automatically.',
  empty: 'No chargebacks yet.',
  spec: (urls) => chargebackTable(urls, new Date()),
  read: chargebackList,
  filters: listChargebacks,
  exports: 'chargebacks',
};

export const EVENT_LIST: ListDefinition<EventDeliveries, Parameters<typeof eventList>[0]> = {
  title: 'Events',
  nav: '/events',
  caption: 'Events, newest first (kept 35 days), each with its webhook delivery attempts; failed attempts are marked Failed.',
  empty: 'No events yet.',
  spec: eventTable,
  read: eventList,
};

/**
 * The handler of one list page (`route`: its declaration): its list, one page at a time (403, 422 as the
 * API answers). `ports`: what its use case reads.
 */
export function listHandler<T extends { id: string }, D, Q>(route: PageRoute, sessions: SignIns, list: ListDefinition<T, D, Q>, ports: D) {
  return dashboardPage(route, sessions, async (request) => {
    const { principal, urls, event } = request;
    const { filters } = list;
    const query = filters ? filteredQueryOf<Q>(event, filters) : (listQueryOf(event) as Q);
    const view = await list.read(ports, principal, query);
    const filtered = filters ? { operation: filters, values: filterValues(event, filters) } : undefined;
    const exporting = list.exports && exportForm(request, list.exports, filtered?.values ?? {}, new Date(), request.formState(EXPORT_FORM));
    return { status: 200, html: listPage(request, { ...list, spec: list.spec(urls), view, actions: list.actions?.(request), filters: filtered, exporting }) };
  });
}
