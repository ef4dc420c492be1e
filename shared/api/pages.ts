import { acceptChargeback, createDisputeDocument, disputeChargeback } from './chargebacks';
import { resendEvent } from './events';
import * as z from '../zod';
import { ANY_MEMBER, TEAM_ROLES, type Permission } from '../domain/team-roles';
import { LIMITS } from '../limits';
import { SCOPES } from '../auth/principal';
import { ROLL_OVERLAPS, type RollOverlap } from '../domain/api-keys';
import { defineDashboardForm, defineForm, definePage, NoParams, PASSWORD_HASHING_MEMORY_MB, pathParam, type ApiOperation, type PageRoute } from './operation';
import { COPY_SCRIPT_PATH } from '../dashboard/copy-script';
import { PASSKEY_SCRIPT_PATH } from '../dashboard/passkey-script';
import { PASSKEY_NAME_MAX_LENGTH } from '../domain/passkeys';
import { listPayments } from './payments';
import { createPaymentLink, updatePaymentLink } from './payment-links';
import { cancelRefund, createRefund } from './refunds';
import { createReport } from './reports';
import { createWebhookEndpoint, deleteWebhookEndpoint, rollWebhookEndpointSecret, updateWebhookEndpoint } from './webhook-endpoints';

/** A password field takes this many characters at most (more than a password may have, to say so rather than cut it). */
const PASSWORD_FIELD_LENGTH = LIMITS.password.maxLength * 4;
/** A TOTP code is 6 digits, a recovery code 19 characters: a field takes a few more, to say it is wrong rather than cut it. */
const CODE_FIELD_LENGTH = 64;
/** A passkey's name (PASSKEY_NAME_MAX_LENGTH) with room to say it is too long. */
const PASSKEY_NAME_FIELD_LENGTH = PASSKEY_NAME_MAX_LENGTH * 4;
/** A credential's JSON: its id (up to 1,023 bytes), public key, attestation and client data, base64url. */
const CREDENTIAL_FIELD_LENGTH = 16_384;

/** The customer's checkout: public, keyed by the link id and the client_key cookie. */
export const checkoutPages = /* @__PURE__ */ (() => [
  // In live mode it opens the acquirer's hosted payment page.
  definePage({ method: 'GET', path: '/checkout/{id}', handler: 'checkout-page', table: 'write', auth: 'public', acquirer: true }),
  definePage({
    method: 'POST',
    path: '/checkout/{id}',
    handler: 'checkout-submit',
    table: 'write',
    auth: 'public',
    // The customer's email is kept with the digest it is found by.
    customerEmails: true,
    // A money path, deployed as a canary where the stage has them.
    canary: true,
    audit: { none: 'a customer paying: no person or key of the organization acts (the payment has its events)' },
  }),
  definePage({ method: 'GET', path: '/checkout/{id}/thank-you', handler: 'checkout-thank-you', table: 'read', auth: 'public' }),
])();

/**
 * A dashboard page: behind a session whose person is read on every request, for the roles whose
 * permission it names (shared/domain/team-roles.ts); it reads, and records the session's last
 * request (lib/route-area.ts grants that one write).
 */
const memberPage = (path: string, handler: string, permission: Permission | typeof ANY_MEMBER, extra: Partial<PageRoute> = {}) =>
  definePage({ method: 'GET', path, handler, table: 'read', auth: 'dashboard session', permission, ...extra });

/** A list page showing a `/v1` list with its filters: that list's access to the customer emails' index, if it has it. */
const showing = (operation: ApiOperation): Partial<PageRoute> => (operation.customerEmails ? { customerEmails: true } : {});

/** Signing in and out: the forms a person posts before and after a session. */
export const dashboardSignIn = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/session',
  handler: 'dashboard-sign-in',
  // A pending sign-in is deleted when its second step completes or fails too often, a passkey challenge when it is used.
  table: { level: 'write', also: ['DeleteItem'] },
  auth: 'public',
  memoryMb: PASSWORD_HASHING_MEMORY_MB,
  // Recorded when the session is issued (a second factor owed issues it later, on its own page); a refusal of a person's email on its own.
  audit: { action: 'user.signed_in', target: 'actor', carriedBy: 'dashboard_session', refusedAs: 'user.sign_in_failed' },
});
export const dashboardPasskeySignIn = /* @__PURE__ */ definePage({ method: 'GET', path: '/dashboard/sign-in/passkey', handler: 'dashboard-passkey-sign-in', table: 'none', auth: 'public' });
/** The options of a passkey sign-in for the page's script (JSON): a challenge kept for this browser's sign-in cookie. */
export const dashboardPasskeySignInOptions = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/sign-in/passkey/options',
  handler: 'dashboard-passkey-sign-in-options',
  table: 'write',
  auth: 'public',
  audit: { none: 'it issues a challenge: the sign-in it answers records' },
});
/**
 * The passkey's answer, posted by the script: both factors at once (§16); the sign-in's challenge
 * is deleted as it is used. A refused answer of a passkey registered to a person is their failed sign-in.
 */
export const dashboardSubmitPasskeySignIn = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/sign-in/passkey',
  handler: 'dashboard-submit-passkey-sign-in',
  table: { level: 'write', also: ['DeleteItem'] },
  auth: 'public',
  audit: { action: 'user.signed_in', target: 'actor', carriedBy: 'dashboard_session', refusedAs: 'user.sign_in_failed' },
});
/**
 * The second step of a sign-in, behind the pending sign-in's cookie: the Code form, or, when the
 * organization requires two-factor of a person without it, its enrolment (which it starts: seal).
 */
export const dashboardSecondFactor = /* @__PURE__ */ definePage({
  method: 'GET',
  path: '/dashboard/sign-in/second-factor',
  handler: 'dashboard-second-factor',
  table: 'write',
  auth: 'public',
  sealedSecrets: ['seal', 'open'],
});
export const dashboardSubmitSecondFactor = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/sign-in/second-factor',
  handler: 'dashboard-submit-second-factor',
  // The pending sign-in is deleted when it completes or fails too often.
  table: { level: 'write', also: ['DeleteItem'] },
  auth: 'public',
  sealedSecrets: ['open'],
  // A wrong code (not an enrolment's) is the person's failed sign-in.
  audit: { action: 'user.signed_in', target: 'actor', carriedBy: 'dashboard_session', refusedAs: 'user.sign_in_failed' },
});
/** The passkey pages' script, served from the dashboard's origin so that their policy allows it as 'self'. */
export const dashboardPasskeyScript = /* @__PURE__ */ definePage({ method: 'GET', path: PASSKEY_SCRIPT_PATH, handler: 'dashboard-passkey-script', table: 'none', auth: 'public' });
/** The copy buttons' script (a secret shown once), served the same way. */
export const dashboardCopyScript = /* @__PURE__ */ definePage({ method: 'GET', path: COPY_SCRIPT_PATH, handler: 'dashboard-copy-script', table: 'none', auth: 'public' });
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
  audit: { none: 'it mails a link (or, for an unknown email, nothing): the reset it leads to records' },
});
export const dashboardPasswordReset = /* @__PURE__ */ definePage({ method: 'GET', path: '/dashboard/password-reset/{token}', handler: 'dashboard-password-reset', table: 'read', auth: 'public' });
export const dashboardResetPassword = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/password-reset/{token}',
  handler: 'dashboard-reset-password',
  // The reset's item is deleted with the new password; the person's sessions end, deleted in batches.
  table: { level: 'write', also: ['DeleteItem', 'BatchWriteItem'] },
  auth: 'public',
  memoryMb: PASSWORD_HASHING_MEMORY_MB,
  audit: { action: 'user.password_reset', target: 'actor' },
});
export const dashboardInvitation = /* @__PURE__ */ definePage({ method: 'GET', path: '/dashboard/invitations/{token}', handler: 'dashboard-invitation', table: 'read', auth: 'public' });
export const dashboardAcceptInvitation = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/invitations/{token}',
  handler: 'dashboard-accept-invitation',
  // The invitation's item is deleted as the person is created.
  table: { level: 'write', also: ['DeleteItem'] },
  auth: 'public',
  memoryMb: PASSWORD_HASHING_MEMORY_MB,
  audit: { action: 'user.joined', target: 'actor', carriedBy: 'user' },
});
/** It deletes the session's item. */
export const dashboardSignOut = /* @__PURE__ */ definePage({
  method: 'POST',
  path: '/dashboard/sign-out',
  handler: 'dashboard-sign-out',
  table: { level: 'write', also: ['DeleteItem'] },
  auth: 'dashboard session',
  permission: ANY_MEMBER,
  audit: { action: 'user.signed_out', target: 'actor' },
});

/** The dashboard's pages, each with the permission its role must hold (the matrix test reads them all). */
export const dashboardHome = /* @__PURE__ */ memberPage('/dashboard', 'dashboard', ANY_MEMBER);
export const dashboardSearch = /* @__PURE__ */ memberPage('/dashboard/search', 'dashboard-search', ANY_MEMBER);
export const dashboardPaymentLinks = /* @__PURE__ */ memberPage('/dashboard/payment-links', 'dashboard-payment-links', 'payment_link:read');
export const dashboardNewPaymentLink = /* @__PURE__ */ memberPage('/dashboard/payment-links/new', 'dashboard-new-payment-link', 'payment_link:create');
export const dashboardPaymentLink = /* @__PURE__ */ memberPage('/dashboard/payment-links/{id}', 'dashboard-payment-link', 'payment_link:read');
export const dashboardPayments = /* @__PURE__ */ memberPage('/dashboard/payments', 'dashboard-payments', 'payment:read', showing(listPayments));
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
/** It shows a pending two-factor enrolment's QR code again (open), and runs the passkey script. */
export const dashboardSecurity = /* @__PURE__ */ memberPage('/dashboard/security', 'dashboard-security', ANY_MEMBER, { sealedSecrets: ['open'] });
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
    audit: { none: "the mode a session's pages show is the session's own: nothing of the organization changes" },
  }))();
export const dashboardChangePassword = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/security/password',
    handler: 'dashboard-change-password',
    // The person's other sessions end, deleted in batches.
    table: { level: 'write', also: ['BatchWriteItem'] },
    permission: ANY_MEMBER,
    params: NoParams,
    body: z.object({ current_password: z.string().check(z.maxLength(PASSWORD_FIELD_LENGTH)), new_password: z.string().check(z.maxLength(PASSWORD_FIELD_LENGTH)) }),
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
    audit: { action: 'user.password_changed', target: 'actor' },
  }))();
export const dashboardSignOutEverywhere = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/security/sign-out-everywhere',
  handler: 'dashboard-sign-out-everywhere',
  // Every session of the person, deleted in batches.
  table: { level: 'write', also: ['BatchWriteItem'] },
  permission: ANY_MEMBER,
  params: NoParams,
  audit: { action: 'user.signed_out_everywhere', target: 'actor' },
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
    audit: { action: 'user.role_changed', target: 'path' },
  }))();
export const dashboardRemoveMember = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/team/members/{id}/remove',
  handler: 'dashboard-remove-member',
  // The membership's item is deleted; the person's sessions end, deleted in batches.
  table: { level: 'write', also: ['DeleteItem', 'BatchWriteItem'] },
  permission: 'team:manage',
  params: memberId,
  audit: { action: 'user.removed', target: 'path' },
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
    audit: { action: 'user.made_owner', target: { body: 'user_id' } },
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
    audit: { action: 'invitation.created', target: 'created' },
  }))();
const invitationId = /* @__PURE__ */ (() => pathParam('id', "The invitation's id (`inv_…`).", 'inv_01jd2x3y4z5a6b7c8d9e0f1g2h'))();
export const dashboardResendInvitation = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/team/invitations/{id}/resend',
  handler: 'dashboard-resend-invitation',
  table: 'write',
  permission: 'team:manage',
  params: invitationId,
  email: true,
  audit: { action: 'invitation.resent', target: 'path' },
});
export const dashboardRevokeInvitation = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/team/invitations/{id}/revoke',
  handler: 'dashboard-revoke-invitation',
  // The invitation's item is deleted.
  table: { level: 'write', also: ['DeleteItem'] },
  permission: 'team:manage',
  params: invitationId,
  audit: { action: 'invitation.revoked', target: 'path' },
});
/** A person's own second factors (the Security page): TOTP with its recovery codes, and passkeys. */
export const dashboardBeginTwoFactor = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/security/two-factor',
  handler: 'dashboard-begin-two-factor',
  table: 'write',
  permission: ANY_MEMBER,
  params: NoParams,
  sealedSecrets: ['seal'],
  audit: { none: 'it starts a setup (a key shown for the app to read): nothing is on until its code confirms it, which records' },
});
export const dashboardConfirmTwoFactor = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/security/two-factor/confirm',
    handler: 'dashboard-confirm-two-factor',
    // The pending enrolment is deleted as the factor is saved.
    table: { level: 'write', also: ['DeleteItem'] },
    permission: ANY_MEMBER,
    params: NoParams,
    body: z.object({ code: z.string().check(z.maxLength(CODE_FIELD_LENGTH)) }),
    sealedSecrets: ['open'],
    audit: { action: 'user.two_factor_enabled', target: 'actor' },
  }))();
export const dashboardRegenerateRecoveryCodes = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/security/recovery-codes',
  handler: 'dashboard-regenerate-recovery-codes',
  table: 'write',
  permission: ANY_MEMBER,
  params: NoParams,
  audit: { action: 'user.recovery_codes_regenerated', target: 'actor' },
});
/** Turning two-factor off asks for the password (checked under the sign-in lockouts). */
export const dashboardRemoveTwoFactor = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/security/two-factor/remove',
    handler: 'dashboard-remove-two-factor',
    // The factor, its recovery codes and any pending enrolment are deleted.
    table: { level: 'write', also: ['DeleteItem'] },
    permission: ANY_MEMBER,
    params: NoParams,
    body: z.object({ password: z.string().check(z.maxLength(PASSWORD_FIELD_LENGTH)) }),
    memoryMb: PASSWORD_HASHING_MEMORY_MB,
    audit: { action: 'user.two_factor_disabled', target: 'actor' },
  }))();
/** The options of a passkey registration for the Security page's script (JSON): a challenge kept for this session. */
export const dashboardPasskeyOptions = /* @__PURE__ */ defineDashboardForm({
  path: '/dashboard/security/passkeys/options',
  handler: 'dashboard-passkey-options',
  table: 'write',
  permission: ANY_MEMBER,
  params: NoParams,
  audit: { none: 'it issues a challenge: the passkey added with it records' },
});
export const dashboardAddPasskey = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/security/passkeys',
    handler: 'dashboard-add-passkey',
    // Its registration's challenge is deleted as it is used.
    table: { level: 'write', also: ['DeleteItem'] },
    permission: ANY_MEMBER,
    params: NoParams,
    body: z.object({ name: z.string().check(z.maxLength(PASSKEY_NAME_FIELD_LENGTH)), credential: z.string().check(z.maxLength(CREDENTIAL_FIELD_LENGTH)) }),
    audit: { action: 'user.passkey_added', target: 'actor' },
  }))();
export const dashboardRemovePasskey = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/security/passkeys/{id}/remove',
    handler: 'dashboard-remove-passkey',
    // The passkey's item is deleted.
    table: { level: 'write', also: ['DeleteItem'] },
    permission: ANY_MEMBER,
    params: z.object({ id: z.string().check(z.regex(/^[A-Za-z0-9_-]{1,1400}$/)) }),
    audit: { action: 'user.passkey_removed', target: 'actor' },
  }))();
/** The organization's "require two-factor" (§16): the owner's, by the roles table's `security:manage`. */
export const dashboardRequireTwoFactor = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/security/require-two-factor',
    handler: 'dashboard-require-two-factor',
    table: 'write',
    permission: 'security:manage',
    params: NoParams,
    body: z.object({ require: z.enum(['on', 'off']) }),
    audit: { action: 'team.two_factor_requirement_changed', target: 'none' },
  }))();

/**
 * The API keys page and its forms (product-decisions §17): the route's permission is test mode's
 * (developers, admins, the owner); a page or form in live mode also needs `api_key:live`
 * (shared/use-cases/api-keys.ts). Each form records its action.
 */
export const dashboardApiKeys = /* @__PURE__ */ memberPage('/dashboard/api-keys', 'dashboard-api-keys', 'api_key:test');
export const dashboardCreateApiKey = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/api-keys',
    handler: 'dashboard-create-api-key',
    table: 'write',
    permission: 'api_key:test',
    params: NoParams,
    body: z.object({
      name: z.string().check(z.trim(), z.minLength(1), z.maxLength(LIMITS.apiKeyNameLength)),
      scopes: z.array(z.enum(SCOPES)).check(z.minLength(1)),
      acceptor_id: z.optional(z.string().check(z.maxLength(64))),
    }),
    audit: { action: 'api_key.created', target: 'created' },
  }))();
export const dashboardRollApiKey = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/api-keys/{id}/roll',
    handler: 'dashboard-roll-api-key',
    table: 'write',
    permission: 'api_key:test',
    params: z.object({ id: z.string() }),
    body: z.object({ expires_in: z.enum(Object.keys(ROLL_OVERLAPS) as [RollOverlap, ...RollOverlap[]]) }),
    audit: { action: 'api_key.rolled', target: 'path' },
  }))();
export const dashboardRevokeApiKey = /* @__PURE__ */ (() =>
  defineDashboardForm({
    path: '/dashboard/api-keys/{id}/revoke',
    handler: 'dashboard-revoke-api-key',
    table: 'write',
    permission: 'api_key:test',
    params: z.object({ id: z.string() }),
    audit: { action: 'api_key.revoked', target: 'path' },
  }))();

/** The audit trail's page (product-decisions §17: owner and admins, both modes), with the API's filters. */
export const dashboardAudit = /* @__PURE__ */ memberPage('/dashboard/audit', 'dashboard-audit', 'audit:read');

/** Export: a list's report (the Export button of the payments, refunds, chargebacks and balance pages), and its page, where the file is offered once built. */
export const dashboardCreateReport = /* @__PURE__ */ defineForm({ path: '/dashboard/reports', handler: 'dashboard-create-report' }, createReport);
export const dashboardReport = /* @__PURE__ */ memberPage('/dashboard/reports/{id}', 'dashboard-report', 'report:read', { reportFiles: 'read' });

/**
 * The merchant dashboard. A literal segment comes before a parameter at the same place
 * (`/payment-links/new` before `/payment-links/{id}`): the local server takes the first match.
 */
export const dashboardPages = /* @__PURE__ */ (() => [
  dashboardHome,
  dashboardSignIn,
  dashboardPasskeySignIn,
  dashboardPasskeySignInOptions,
  dashboardSubmitPasskeySignIn,
  dashboardSecondFactor,
  dashboardSubmitSecondFactor,
  dashboardPasskeyScript,
  dashboardCopyScript,
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
  dashboardBeginTwoFactor,
  dashboardConfirmTwoFactor,
  dashboardRegenerateRecoveryCodes,
  dashboardRemoveTwoFactor,
  dashboardPasskeyOptions,
  dashboardAddPasskey,
  dashboardRemovePasskey,
  dashboardRequireTwoFactor,
  dashboardApiKeys,
  dashboardCreateApiKey,
  dashboardRollApiKey,
  dashboardRevokeApiKey,
  dashboardAudit,
  dashboardCreateReport,
  dashboardReport,
])();
