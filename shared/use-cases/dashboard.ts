import { randomBytes } from 'node:crypto';
import type { Authenticator } from '../auth/authenticate';
import type { Principal, Scope } from '../auth/principal';
import { hashToken } from '../auth/tokens';
import type { ChargebackRepository } from '../db/chargeback-repository';
import type { PaymentLinkRepository } from '../db/payment-link-repository';
import type { VersionedLink } from '../domain/payment-links';
import type { PaymentRepository } from '../db/payment-repository';
import type { RefundRepository } from '../db/refund-repository';
import type { Chargeback } from '../domain/chargebacks';
import {
  CHARGEBACK_WINDOW,
  DASHBOARD_SCOPES,
  DELIVERIES_SCOPE,
  SECTION_LIMIT,
  SECTION_SCOPES,
  SESSION_ID_PATTERN,
  SESSION_TTL_SECONDS,
  canSee,
  canSignIn,
  openBySoonestDeadline,
  type DashboardSessionStore,
  type DeliveryAttempt,
  type DeliveryLog,
  type Section,
} from '../domain/dashboard';
import type { Payment } from '../domain/payments';
import type { Refund } from '../domain/refunds';
import { requireOwned } from '../domain/scope';
import { NotAuthenticatedError, PermissionDeniedError } from '../errors';
import { isoMillis } from '../time';

export interface DashboardDeps {
  authenticator: Pick<Authenticator, 'authenticateToken' | 'authenticateTokenHash'>;
  sessions: DashboardSessionStore;
  links: Pick<PaymentLinkRepository, 'list'>;
  payments: Pick<PaymentRepository, 'list'>;
  refunds: Pick<RefundRepository, 'list' | 'get'>;
  chargebacks: Pick<ChargebackRepository, 'list'>;
  deliveries: DeliveryLog;
  now: () => Date;
}

export interface Overview {
  principal: Principal;
  paymentLinks: Section<VersionedLink>;
  payments: Section<Payment>;
  refunds: Section<Refund>;
  /** `more`: the chargebacks checked were only the most recent CHARGEBACK_WINDOW. */
  chargebacks: Section<Chargeback>;
  deliveries: Section<DeliveryAttempt>;
}

const SESSION_ENDED = 'Your dashboard session has ended; sign in again';

export function dashboardUseCases(deps: DashboardDeps) {
  /** A section's rows, or the scope the key lacks to see them. */
  async function section<T>(principal: Principal, scope: Scope | undefined, read: () => Promise<{ items: T[]; more: boolean }>) {
    if (!canSee(principal, scope)) return { allowed: false, scope: scope! } as Section<T>;
    return { allowed: true, ...(await read()) } as Section<T>;
  }

  const newest = async <T>(list: Promise<{ items: T[]; hasMore: boolean }>) => {
    const page = await list;
    return { items: page.items, more: page.hasMore };
  };

  return {
    /**
     * Signs in with an API key:
     * 1. the Authenticator checks the token exactly as for the API (401, 403, 422, 503);
     * 2. the key must hold at least one dashboard read scope (403);
     * 3. a session item keeps the key's token hash for SESSION_TTL_SECONDS under a fresh random id.
     * Returns the id for the cookie; the token itself is kept nowhere.
     */
    async signIn(token: string): Promise<{ sessionId: string; principal: Principal }> {
      const principal = await deps.authenticator.authenticateToken(token, undefined);
      if (!canSignIn(principal)) {
        throw new PermissionDeniedError(`The API key needs at least one of the scopes ${DASHBOARD_SCOPES.join(', ')}`);
      }
      const now = deps.now();
      const sessionId = randomBytes(32).toString('base64url');
      await deps.sessions.create(sessionId, {
        tokenHash: hashToken(token),
        createdAt: isoMillis(now),
        expiresAt: isoMillis(now.getTime() + SESSION_TTL_SECONDS * 1000),
      });
      return { sessionId, principal };
    },

    /**
     * The caller of a dashboard page:
     * 1. the session must exist and not be past `expiresAt` (401);
     * 2. its key is re-checked by the Authenticator, so a revoked or demoted key stops within
     *    seconds (401, 403, 422), and it must still hold a dashboard scope (403).
     */
    async resume(sessionId: string | undefined): Promise<Principal> {
      if (!sessionId || !SESSION_ID_PATTERN.test(sessionId)) throw new NotAuthenticatedError(SESSION_ENDED);
      const session = await deps.sessions.find(sessionId);
      if (!session || Date.parse(session.expiresAt) <= deps.now().getTime()) throw new NotAuthenticatedError(SESSION_ENDED);
      const principal = await deps.authenticator.authenticateTokenHash(session.tokenHash, undefined);
      if (!canSignIn(principal)) throw new PermissionDeniedError(`The API key no longer holds any of the scopes ${DASHBOARD_SCOPES.join(', ')}`);
      return principal;
    },

    async signOut(sessionId: string | undefined): Promise<void> {
      if (sessionId && SESSION_ID_PATTERN.test(sessionId)) await deps.sessions.remove(sessionId);
    },

    /**
     * Every section at once, each one Query (deliveries: see the DeliveryLog adapter), each
     * capped at SECTION_LIMIT rows and only for the scopes the key holds:
     * 1. payment links, payments and refunds: the newest, as their API lists return them;
     * 2. chargebacks: the open ones among the CHARGEBACK_WINDOW most recent, soonest deadline first;
     * 3. webhook deliveries: the most recent attempts, newest first.
     */
    async overview(principal: Principal): Promise<Overview> {
      const page = { limit: SECTION_LIMIT };
      const [paymentLinks, payments, refunds, chargebacks, deliveries] = await Promise.all([
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
      ]);
      return { principal, paymentLinks, payments, refunds, chargebacks, deliveries };
    },

    /** One refund of the caller (`links.dashboard` of the refund object): 403 without refund:read, else 404 unless owned. */
    async refund(principal: Principal, id: string): Promise<Refund> {
      if (!canSee(principal, SECTION_SCOPES.refunds)) throw new PermissionDeniedError(`The API key lacks the scope ${SECTION_SCOPES.refunds}`);
      return requireOwned(await deps.refunds.get(id), principal);
    },
  };
}

export type DashboardUseCases = ReturnType<typeof dashboardUseCases>;
