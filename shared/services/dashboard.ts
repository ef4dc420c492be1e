import { createLedgerReads } from '../db/balance';
import { createChargebackRepository } from '../db/chargeback-repository';
import { createDashboardReads } from '../db/dashboard-reads';
import { createPendingSignIns, createSessionStore } from '../db/dashboard-session-store';
import { createDeliveryRepository } from '../db/delivery-repository';
import { createAcceptorList, createOrganizationLookup } from '../db/directory-lookups';
import { createDirectory } from '../db/directory';
import { apiKeys } from '../use-cases/api-keys';
import { createEventRepository } from '../db/event-repository';
import { createPaymentLinkRepository } from '../db/payment-link-repository';
import { createPaymentRepository } from '../db/payment-repository';
import { createRefundRepository } from '../db/refund-repository';
import { createSettlementRepository } from '../db/settlement-repository';
import { createSubscriptionReads } from '../db/webhook-repository';
import { identifyActor } from '../db/audit-trail';
import { createAttemptWindows, createRateLimiter } from '../db/rate-limit';
import { createTeamDirectory } from '../db/team-directory';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { signIns } from '../use-cases/sign-in';
import { teamManagement } from '../use-cases/team';
import { passwordResets } from '../use-cases/password-reset';
import { teamMessages } from '../dashboard/emails';
import { customerEmailIndex } from './customer-emails';
import { idempotencyStore } from './auth';
import { emailSender } from './email';
import { once, processWiring, type Wiring } from './wiring';

/*
 * The dashboard's ports, one accessor each (built on first use, once per process): a page's
 * handler names the ones its use case needs, so its bundle holds only those adapters
 * (docs/benchmarks.md, cold start). The use cases in shared/use-cases/dashboard.ts say which.
 */
const port = <T>(build: (wiring: Wiring) => T) => once(() => build(processWiring()));

/**
 * Signing in and every page's caller: the people, their sessions and pending sign-ins, the
 * lockouts' attempt windows and the password hash.
 */
export const dashboardSessionServices = /* @__PURE__ */ port(({ db, tableName, now }) =>
  signIns({
    people: createTeamDirectory(db, tableName),
    organization: createOrganizationLookup(db, tableName),
    sessions: createSessionStore(db, tableName),
    pending: createPendingSignIns(db, tableName),
    attempts: createAttemptWindows(db, tableName),
    passwords: { verify: verifyPassword, hash: hashPassword },
    audit: { identified: identifyActor },
    now,
  }),
);

/**
 * The team page's changes and invitations: the people, their sessions, the sign-in's steps (a
 * handover's password, the session after an accepted invitation), the organization's name and
 * the email port with the team's messages.
 */
export const teamServices = /* @__PURE__ */ port(({ db, tableName, now }) =>
  teamManagement({
    people: createTeamDirectory(db, tableName),
    sessions: createSessionStore(db, tableName),
    signIns: dashboardSessionServices(),
    organization: createOrganizationLookup(db, tableName),
    email: emailSender(),
    messages: teamMessages,
    passwords: { hash: hashPassword },
    audit: { identified: identifyActor },
    now,
  }),
);

/** Password resets by email: the people and their resets, their sessions (a reset ends them), the requests' counters and the email port. */
export const passwordResetServices = /* @__PURE__ */ port(({ db, tableName, now }) =>
  passwordResets({
    people: createTeamDirectory(db, tableName),
    sessions: createSessionStore(db, tableName),
    limiter: createRateLimiter(db, tableName),
    email: emailSender(),
    messages: teamMessages,
    passwords: { hash: hashPassword },
    audit: { identified: identifyActor },
    now,
  }),
);

/** Every form's function: the sessions, and the idempotency records its one-time nonce keys (shared/dashboard/http.ts `dashboardForm`). */
export const dashboardFormPorts = /* @__PURE__ */ once(() => ({ sessions: dashboardSessionServices(), idempotency: idempotencyStore() }));

export const linkPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ links: createPaymentLinkRepository(db, tableName) }));
export const paymentPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ payments: createPaymentRepository(db, tableName) }));
/** The payments list's filter by customer email (the function's route declares `customerEmails`). */
export const customerEmailPorts = /* @__PURE__ */ once(() => ({ customerEmails: customerEmailIndex() }));
export const refundPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ refunds: createRefundRepository(db, tableName) }));
export const ledgerPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ ledger: createLedgerReads(db, tableName) }));
export const chargebackPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ chargebacks: createChargebackRepository(db, tableName) }));
export const deliveryPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ deliveries: createDeliveryRepository(db, tableName) }));
export const eventPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ events: createEventRepository(db, tableName), ...deliveryPorts() }));
export const endpointPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ endpoints: createSubscriptionReads(db, tableName) }));
export const settlementPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ settlements: createSettlementRepository(db, tableName) }));
export const acceptorPorts = /* @__PURE__ */ port(({ db, tableName }) => ({ acceptors: createAcceptorList(db, tableName) }));
/** The chart's paid payments: a read only the dashboard makes. */
export const dashboardReadPorts = /* @__PURE__ */ port(({ db, tableName, now }) => ({ ...createDashboardReads(db, tableName), now }));
/** The API keys page and its forms: the keys (through the directory, as `ops key` reaches them), the people who made them, the acceptors. */
export const apiKeyPorts = /* @__PURE__ */ port(({ db, tableName }) => {
  const directory = createDirectory(db, tableName);
  return { keys: apiKeys({ directory }), people: (orgId: string) => directory.listUsers(orgId), acceptors: createAcceptorList(db, tableName) };
});
