import { acceptChargeback, createDisputeDocument, disputeChargeback } from './chargebacks';
import { resendEvent } from './events';
import * as z from '../zod';
import { ANY_MEMBER, TEAM_ROLES, type Permission } from '../domain/team-roles';
import { LIMITS } from '../limits';
import { defineDashboardForm, defineForm, definePage, NoParams, PASSWORD_HASHING_MEMORY_MB, pathParam, type PageRoute } from './operation';
import { PASSKEY_SCRIPT_PATH } from '../dashboard/passkey-script';
import { createPaymentLink, updatePaymentLink } from './payment-links';
import { cancelRefund, createRefund } from './refunds';
import { createWebhookEndpoint, deleteWebhookEndpoint, rollWebhookEndpointSecret, updateWebhookEndpoint } from './webhook-endpoints';

/** A password field takes this many characters at most (more than a password may have, to say so rather than cut it). */
const PASSWORD_FIELD_LENGTH = LIMITS.password.maxLength * 4;

/** The customer's checkout: public, keyed by the link id and the client_key cookie. */
export const checkoutPages = /* @__PURE__ */ (() => [
  // In live mode it opens the acquirer's hosted payment page.
  definePage({ method: 'GET', path: '/checkout/{id}', handler: 'checkout-page', table: 'write', auth: 'public', acquirer: true }),
  definePage({ method: 'POST', path: '/checkout/{id}', handler: 'checkout-submit', table: 'write', auth: 'public' }),
  definePage({ method: 'GET', path: '/checkout/{id}/thank-you', handler: 'checkout-thank-you', table: 'read', auth: 'public' }),
])();

/**
 * A dashboard page: behind a session whose person is read on every request, for the roles whose
 * permission it names (shared/domain/team-roles.ts); it reads, and records the session's last
 * request (lib/route-area.ts grants that one write).
 */
const memberPage = (path: string, handler: string, permission: Permission | typeof ANY_MEMBER, extra: Partial<PageRoute> = {}) =>
  definePage({ method: 'GET', path, handler, table: 'read', auth: 'dashboard session', permission, ...extra });

/** Signing in and out: the forms a person posts before and after a session. */
export const dashboardSignIn = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/session',
  handler: 'dashboard-sign-in',
  table: 'write',
  auth: 'public',
  memoryMb: PASSWORD_HASHING_MEMORY_MB,
});
export const dashboardPasskeySignIn = /* @__PURE__ */ definePage({ method: 'GET', path: '/dashboard/sign-in/passkey', handler: 'dashboard-passkey-sign-in', table: 'none', auth: 'public' });
/** The passkey pages' script, served from the dashboard's origin so that their policy allows it as 'self'. */
export const dashboardPasskeyScript = /* @__PURE__ */ definePage({ method: 'GET', path: PASSKEY_SCRIPT_PATH, handler: 'dashboard-passkey-script', table: 'none', auth: 'public' });
/**
 * The pages a person reaches from an email, without a session (product-decisions §16): the
 * password reset asked for and set, an invitation shown and accepted. The links' tokens are path
 * segments: the API's access log records the route, never the path.
 */
export const dashboardForgotPassword = /* @__PURE__ */ definePage({ method: 'GET', path: '/dashboard/forgot-password', handler: 'dashboard-forgot-password', table: 'none', auth: 'public' });
export const dashboardRequestPasswordReset = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/forgot-password',
  handler: 'dashboard-request-password-reset',
  table: 'write',
  auth: 'public',
  email: true,
});
export const dashboardPasswordReset = /* @__PURE__ */ definePage({ method: 'GET', path: '/dashboard/password-reset/{token}', handler: 'dashboard-password-reset', table: 'read', auth: 'public' });
export const dashboardResetPassword = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/password-reset/{token}',
  handler: 'dashboard-reset-password',
  table: 'write',
  auth: 'public',
  memoryMb: PASSWORD_HASHING_MEMORY_MB,
});
export const dashboardInvitation = /* @__PURE__ */ definePage({ method: 'GET', path: '/dashboard/invitations/{token}', handler: 'dashboard-invitation', table: 'read', auth: 'public' });
export const dashboardAcceptInvitation = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/invitations/{token}',
  handler: 'dashboard-accept-invitation',
  table: 'write',
  auth: 'public',
  memoryMb: PASSWORD_HASHING_MEMORY_MB,
});
export const dashboardSignOut = /* @__PURE__ */ definePage({ method: 'POST', path: '/dashboard/sign-out', handler: 'dashboard-sign-out', table: 'write', auth: 'dashboard session', permission: ANY_MEMBER });

/** The dashboard's pages, each with the permission its role must hold (the matrix test reads them all). */
export const dashboardHome = /* @__PURE__ */ memberPage('/dashboard', 'dashboard', ANY_MEMBER);
export const dashboardSearch = /* @__PURE__ */ memberPage('/dashboard/search', 'dashboard-search', ANY_MEMBER);
export const dashboardPaymentLinks = /* @__PURE__ */ memberPage('/dashboard/payment-links', 'dashboard-payment-links', 'payment_link:read');
export const dashboardNewPaymentLink = /* @__PURE__ */ memberPage('/dashboard/payment-links/new', 'dashboard-new-payment-link', 'payment_link:create');
export const dashboardPaymentLink = /* @__PURE__ */ memberPage('/dashboard/payment-links/{id}', 'dashboard-payment-link', 'payment_link:read');
export const dashboardPayments = /* @__PURE__ */ memberPage('/dashboard/payments', 'dashboard-payments', 'payment:read');
export const dashboardPayment = /* @__PURE__ */ memberPage('/dashboard/payments/{id}', 'dashboard-payment', 'payment:read');
export const dashboardRefunds = /* @__PURE__ */ memberPage('/dashboard/refunds', 'dashboard-refunds', 'refund:read');
export const dashboardRefund = /* @__PURE__ */ memberPage('/dashboard/refunds/{id}', 'dashboard-refund', 'refund:read');
export const dashboardChargebacks = /* @__PURE__ */ memberPage('/dashboard/chargebacks', 'dashboard-chargebacks', 'chargeback:read');
/** It names the documents' upload origin in its Content-Security-Policy, for its script. */
export const dashboardChargeback = /* @__PURE__ */ memberPage('/dashboard/chargebacks/{id}', 'dashboard-chargeback', 'chargeback:read', { documents: 'origin' });
export const dashboardEvents = /* @__PURE__ */ memberPage('/dashboard/events', 'dashboard-events', 'event:read');
export const dashboardEvent = /* @__PURE__ */ memberPage('/dashboard/events/{id}', 'dashboard-event', 'event:read');
export const dashboardWebhooks = /* @__PURE__ */ memberPage('/dashboard/webhooks', 'dashboard-webhooks', 'webhook:read');
export const dashboardNewWebhook = /* @__PURE__ */ memberPage('/dashboard/webhooks/new', 'dashboard-new-webhook', 'webhook:write');
export const dashboardWebhook = /* @__PURE__ */ memberPage('/dashboard/webhooks/{id}', 'dashboard-webhook', 'webhook:read');
export const dashboardBalanceTransactions = /* @__PURE__ */ memberPage('/dashboard/balance-transactions', 'dashboard-balance-transactions', 'balance:read');
export const dashboardSettlements = /* @__PURE__ */ memberPage('/dashboard/settlements', 'dashboard-settlements', 'settlement:read');
export const dashboardSettlement = /* @__PURE__ */ memberPage('/dashboard/settlements/{id}', 'dashboard-settlement', 'settlement:read');
export const dashboardSettlementCsv = /* @__PURE__ */ memberPage('/dashboard/settlements/{id}/records.csv', 'dashboard-settlement-csv', 'settlement:export');
export const dashboardSecurity = /* @__PURE__ */ memberPage('/dashboard/security', 'dashboard-security', ANY_MEMBER);
export const dashboardTeam = /* @__PURE__ */ memberPage('/dashboard/team', 'dashboard-team', ANY_MEMBER);

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

/** The dashboard's own forms: the mode its pages show, and the person's password and sessions. */
export const dashboardSwitchMode = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/mode',
    handler: 'dashboard-switch-mode',
    table: 'write',
    permission: ANY_MEMBER,
    params: NoParams,
    body: z.object({ mode: z.enum(['test', 'live']), return_to: z.optional(z.string().check(z.maxLength(512))) }),
  }))();
export const dashboardChangePassword = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/security/password',
    handler: 'dashboard-change-password',
    table: 'write',
    permission: ANY_MEMBER,
    params: NoParams,
    body: z.object({ current_password: z.string().check(z.maxLength(PASSWORD_FIELD_LENGTH)), new_password: z.string().check(z.maxLength(PASSWORD_FIELD_LENGTH)) }),
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  }))();
export const dashboardSignOutEverywhere = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/security/sign-out-everywhere',
  handler: 'dashboard-sign-out-everywhere',
  table: 'write',
  permission: ANY_MEMBER,
  params: NoParams,
});

/** The team page's forms: a member's role and removal (owners and admins), the handover (the owner). */
const memberId = /* @__PURE__ */ (() => pathParam('id', "The member's user id (`usr_…`).", 'usr_01jd2x3y4z5a6b7c8d9e0f1g2h'))();
export const dashboardChangeRole = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/team/members/{id}/role',
    handler: 'dashboard-change-role',
    table: 'write',
    permission: 'team:manage',
    params: memberId,
    body: z.object({ role: z.enum(TEAM_ROLES) }),
  }))();
export const dashboardRemoveMember = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/team/members/{id}/remove',
  handler: 'dashboard-remove-member',
  table: 'write',
  permission: 'team:manage',
  params: memberId,
});
export const dashboardHandOverOwnership = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/team/ownership',
    handler: 'dashboard-hand-over-ownership',
    table: 'write',
    permission: 'team:transfer_ownership',
    params: NoParams,
    body: z.object({ user_id: z.string().check(z.maxLength(64)), password: z.string().check(z.maxLength(PASSWORD_FIELD_LENGTH)) }),
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
  }))();

/** Invitations (owners and admins): a new one, sent again with a new link, revoked. */
export const dashboardInvite = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/team/invitations',
    handler: 'dashboard-invite',
    table: 'write',
    permission: 'team:manage',
    params: NoParams,
    body: z.object({ email: z.string().check(z.maxLength(LIMITS.customer.emailLength)), role: z.enum(TEAM_ROLES) }),
    email: true,
  }))();
const invitationId = /* @__PURE__ */ (() => pathParam('id', "The invitation's id (`inv_…`).", 'inv_01jd2x3y4z5a6b7c8d9e0f1g2h'))();
export const dashboardResendInvitation = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/team/invitations/{id}/resend',
  handler: 'dashboard-resend-invitation',
  table: 'write',
  permission: 'team:manage',
  params: invitationId,
  email: true,
});
export const dashboardRevokeInvitation = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/team/invitations/{id}/revoke',
  handler: 'dashboard-revoke-invitation',
  table: 'write',
  permission: 'team:manage',
  params: invitationId,
});

/**
 * The merchant dashboard. A literal segment comes before a parameter at the same place
 * (`/payment-links/new` before `/payment-links/{id}`): the local server takes the first match.
 */
export const dashboardPages = /* @__PURE__ */ (() => [
  dashboardHome,
  dashboardSignIn,
  dashboardPasskeySignIn,
  dashboardPasskeyScript,
  dashboardSignOut,
  dashboardForgotPassword,
  dashboardRequestPasswordReset,
  dashboardPasswordReset,
  dashboardResetPassword,
  dashboardInvitation,
  dashboardAcceptInvitation,
  dashboardSwitchMode,
  dashboardSearch,
  dashboardPaymentLinks,
  dashboardNewPaymentLink,
  dashboardPaymentLink,
  dashboardCreatePaymentLink,
  dashboardUpdatePaymentLink,
  dashboardPayments,
  dashboardPayment,
  dashboardCreateRefund,
  dashboardRefunds,
  dashboardRefund,
  dashboardCancelRefund,
  dashboardChargebacks,
  dashboardChargeback,
  dashboardAcceptChargeback,
  dashboardDisputeChargeback,
  dashboardCreateDisputeDocument,
  dashboardEvents,
  dashboardEvent,
  dashboardResendEvent,
  dashboardWebhooks,
  dashboardNewWebhook,
  dashboardWebhook,
  dashboardCreateWebhook,
  dashboardUpdateWebhook,
  dashboardRollWebhookSecret,
  dashboardDeleteWebhook,
  dashboardBalanceTransactions,
  dashboardSettlements,
  dashboardSettlement,
  dashboardSettlementCsv,
  dashboardSecurity,
  dashboardChangePassword,
  dashboardSignOutEverywhere,
  dashboardTeam,
  dashboardChangeRole,
  dashboardRemoveMember,
  dashboardHandOverOwnership,
  dashboardInvite,
  dashboardResendInvitation,
  dashboardRevokeInvitation,
])();
