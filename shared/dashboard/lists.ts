import type { Principal } from '../auth/principal';
import type { PublicUrls } from '../config';
import type { ApiEvent } from '../http/response';
import type { DashboardUseCases, ListParams, ListView } from '../use-cases/dashboard';
import { dashboardPage, type DashboardRequest } from './http';
import { type NavPath, type TableSpec } from './html';
import { listPage } from './pages';
import { chargebackTable, eventTable, linkTable, paymentTable, refundTable } from './tables';
import { escapeHtml } from '../http/page';

/** The list parameters of a page's query string (others are ignored, as on the API's retrieves). */
export function listQueryOf(event: ApiEvent): ListParams {
  const { limit, starting_after, ending_before } = event.queryStringParameters ?? {};
  return { limit, starting_after, ending_before };
}

/** A link page's query: its payments' list parameters and its events' cursor. */
export const linkQueryOf = (event: ApiEvent) => ({ ...listQueryOf(event), events_after: event.queryStringParameters?.events_after });

interface ListDefinition<T extends { id: string }> {
  title: string;
  nav: NavPath;
  caption: string;
  empty: string;
  spec: (urls: PublicUrls) => TableSpec<T>;
  read: (dashboard: DashboardUseCases, principal: Principal, query: ListParams) => Promise<ListView<T>>;
  actions?: (principal: Principal, urls: PublicUrls) => string;
}

/** A list page's rendering: its list read for the caller, then drawn with its table. */
const define =
  <T extends { id: string }>(list: ListDefinition<T>) =>
  async (dashboard: DashboardUseCases, request: DashboardRequest): Promise<string> => {
    const { principal, urls, event } = request;
    const view = await list.read(dashboard, principal, listQueryOf(event));
    return listPage(request, { ...list, spec: list.spec(urls), view, actions: list.actions?.(principal, urls) });
  };

/** Every list page of the dashboard: each reads its list use case with the API's list rules. */
export const LISTS = {
  paymentLinks: define({
    title: 'Payment links',
    nav: '/payment-links',
    caption: 'Payment links, newest first.',
    empty: 'No payment links yet.',
    spec: linkTable,
    read: (dashboard, principal, query) => dashboard.paymentLinks(principal, query),
    actions: (principal, urls) =>
      principal.scopes.includes('payment_link:create')
        ? `<div class="actions-row"><a class="button primary" href="${escapeHtml(`${urls.dashboard}/payment-links/new`)}">Create a payment link</a></div>`
        : '',
  }),
  payments: define({
    title: 'Payments',
    nav: '/payments',
    caption: 'Payments, newest first.',
    empty: 'No payments yet.',
    spec: paymentTable,
    read: (dashboard, principal, query) => dashboard.payments(principal, query),
  }),
  refunds: define({
    title: 'Refunds',
    nav: '/refunds',
    caption: 'Refunds, newest first; refunds waiting for the balance are marked On hold.',
    empty: 'No refunds yet.',
    spec: refundTable,
    read: (dashboard, principal, query) => dashboard.refunds(principal, query),
  }),
  chargebacks: define({
    title: 'Chargebacks',
    nav: '/chargebacks',
    caption: 'Chargebacks, newest first; respond to open ones before their deadline or they are accepted automatically.',
    empty: 'No chargebacks yet.',
    spec: (urls) => chargebackTable(urls, new Date()),
    read: (dashboard, principal, query) => dashboard.chargebacks(principal, query),
  }),
  events: define({
    title: 'Events',
    nav: '/events',
    caption: 'Events, newest first (kept 35 days), each with its webhook delivery attempts; failed attempts are marked Failed.',
    empty: 'No events yet.',
    spec: () => eventTable,
    read: (dashboard, principal, query) => dashboard.events(principal, query),
  }),
};

/** The handler of one list page: its read scope, its list, one page at a time (403, 422 as the API answers). */
export function listHandler(dashboard: DashboardUseCases, name: keyof typeof LISTS) {
  return dashboardPage(dashboard, async (request) => ({ status: 200, html: await LISTS[name](dashboard, request) }));
}
