import { acceptChargeback, createDisputeDocument, disputeChargeback } from './chargebacks';
import { resendEvent } from './events';
import { defineForm, definePage } from './operation';
import { createPaymentLink, updatePaymentLink } from './payment-links';
import { cancelRefund, createRefund } from './refunds';
import { createWebhookEndpoint, deleteWebhookEndpoint, rollWebhookEndpointSecret, updateWebhookEndpoint } from './webhook-endpoints';

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
export const dashboardAcceptChargeback = /* @__PURE__ */ defineForm({ path: '/dashboard/chargebacks/{id}/accept', handler: 'dashboard-accept-chargeback' }, acceptChargeback);
export const dashboardDisputeChargeback = /* @__PURE__ */ defineForm({ path: '/dashboard/chargebacks/{id}/dispute', handler: 'dashboard-dispute-chargeback' }, disputeChargeback);
/** Not a form but the request the chargeback page's script makes for each file: the document and its upload, in JSON. */
export const dashboardCreateDisputeDocument = /* @__PURE__ */ defineForm(
  { path: '/dashboard/chargebacks/{id}/documents', handler: 'dashboard-create-dispute-document' },
  createDisputeDocument,
);
export const dashboardResendEvent = /* @__PURE__ */ defineForm({ path: '/dashboard/events/{id}/resend', handler: 'dashboard-resend-event' }, resendEvent);
export const dashboardCreateWebhook = /* @__PURE__ */ defineForm({ path: '/dashboard/webhooks', handler: 'dashboard-create-webhook' }, createWebhookEndpoint);
export const dashboardUpdateWebhook = /* @__PURE__ */ defineForm({ path: '/dashboard/webhooks/{id}', handler: 'dashboard-update-webhook' }, updateWebhookEndpoint);
export const dashboardRollWebhookSecret = /* @__PURE__ */ defineForm(
  { path: '/dashboard/webhooks/{id}/roll-secret', handler: 'dashboard-roll-webhook-secret' },
  rollWebhookEndpointSecret,
);
export const dashboardDeleteWebhook = /* @__PURE__ */ defineForm({ path: '/dashboard/webhooks/{id}/delete', handler: 'dashboard-delete-webhook' }, deleteWebhookEndpoint);

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
  // It names the documents' upload origin in its Content-Security-Policy, for its script.
  definePage({ method: 'GET', path: '/dashboard/chargebacks/{id}', handler: 'dashboard-chargeback', table: 'read', auth: 'dashboard session', documents: 'origin' }),
  dashboardAcceptChargeback,
  dashboardDisputeChargeback,
  dashboardCreateDisputeDocument,
  dashboardPage('/dashboard/events', 'dashboard-events'),
  dashboardPage('/dashboard/events/{id}', 'dashboard-event'),
  dashboardResendEvent,
  dashboardPage('/dashboard/webhooks', 'dashboard-webhooks'),
  dashboardPage('/dashboard/webhooks/new', 'dashboard-new-webhook'),
  dashboardPage('/dashboard/webhooks/{id}', 'dashboard-webhook'),
  dashboardCreateWebhook,
  dashboardUpdateWebhook,
  dashboardRollWebhookSecret,
  dashboardDeleteWebhook,
  dashboardPage('/dashboard/balance-transactions', 'dashboard-balance-transactions'),
  dashboardPage('/dashboard/settlements', 'dashboard-settlements'),
  dashboardPage('/dashboard/settlements/{id}', 'dashboard-settlement'),
  dashboardPage('/dashboard/settlements/{id}/records.csv', 'dashboard-settlement-csv'),
])();
