import { defineForm, definePage } from './operation';
import { createPaymentLink, updatePaymentLink } from './payment-links';
import { cancelRefund, createRefund } from './refunds';

/** The customer's checkout: public, keyed by the link id and the client_key cookie. */
export const checkoutPages = /* @__PURE__ */ (() => [
  // In live mode it opens the acquirer's hosted payment page.
  definePage({ method: 'GET', path: '/checkout/{id}', handler: 'checkout-page', table: 'write', auth: 'public', acquirer: true }),
  definePage({ method: 'POST', path: '/checkout/{id}', handler: 'checkout-submit', table: 'write', auth: 'public' }),
  definePage({ method: 'GET', path: '/checkout/{id}/thank-you', handler: 'checkout-thank-you', table: 'read', auth: 'public' }),
])();

/** A dashboard page: a session cookie whose API key is re-checked on every request; reads only. */
const dashboardPage = (path: string, handler: string) => definePage({ method: 'GET', path, handler, table: 'read', auth: 'dashboard session' });

/** The dashboard's forms, each performing a `/v1` operation with that operation's scope, schemas and use case. */
export const dashboardCreatePaymentLink = /* @__PURE__ */ defineForm({ path: '/dashboard/payment-links', handler: 'dashboard-create-payment-link' }, createPaymentLink);
export const dashboardUpdatePaymentLink = /* @__PURE__ */ defineForm({ path: '/dashboard/payment-links/{id}', handler: 'dashboard-update-payment-link' }, updatePaymentLink);
export const dashboardCreateRefund = /* @__PURE__ */ defineForm({ path: '/dashboard/payments/{id}/refunds', handler: 'dashboard-create-refund' }, createRefund);
export const dashboardCancelRefund = /* @__PURE__ */ defineForm({ path: '/dashboard/refunds/{id}/cancel', handler: 'dashboard-cancel-refund' }, cancelRefund);

/**
 * The merchant dashboard. A literal segment comes before a parameter at the same place
 * (`/payment-links/new` before `/payment-links/{id}`): the local server takes the first match.
 */
export const dashboardPages = /* @__PURE__ */ (() => [
  dashboardPage('/dashboard', 'dashboard'),
  definePage({ method: 'POST', path: '/dashboard/session', handler: 'dashboard-sign-in', table: 'write', auth: 'public' }),
  definePage({ method: 'POST', path: '/dashboard/sign-out', handler: 'dashboard-sign-out', table: 'write', auth: 'dashboard session' }),
  dashboardPage('/dashboard/search', 'dashboard-search'),
  dashboardPage('/dashboard/payment-links', 'dashboard-payment-links'),
  dashboardPage('/dashboard/payment-links/new', 'dashboard-new-payment-link'),
  dashboardPage('/dashboard/payment-links/{id}', 'dashboard-payment-link'),
  dashboardCreatePaymentLink,
  dashboardUpdatePaymentLink,
  dashboardPage('/dashboard/payments', 'dashboard-payments'),
  dashboardPage('/dashboard/payments/{id}', 'dashboard-payment'),
  dashboardCreateRefund,
  dashboardPage('/dashboard/refunds', 'dashboard-refunds'),
  dashboardPage('/dashboard/refunds/{id}', 'dashboard-refund'),
  dashboardCancelRefund,
  dashboardPage('/dashboard/chargebacks', 'dashboard-chargebacks'),
  dashboardPage('/dashboard/events', 'dashboard-events'),
])();
