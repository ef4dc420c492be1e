import type { Principal, Scope } from '../auth/principal';
import type { Chargeback } from './chargebacks';

/**
 * Dashboard-lite (issue 8, item 4): a merchant signs in with an API key and reads an overview
 * of their organization and mode. Pure rules and the narrow interfaces the use case needs; the
 * adapters live in shared/db, the HTML in shared/dashboard.
 */

/** The read scope each section needs; a key sees the sections it holds the scope for. */
export const SECTION_SCOPES = {
  paymentLinks: 'payment_link:read',
  payments: 'payment:read',
  refunds: 'refund:read',
  chargebacks: 'chargeback:read',
} as const satisfies Record<string, Scope>;

/** A key may sign in when it holds at least one of these. */
export const DASHBOARD_SCOPES: readonly Scope[] = Object.values(SECTION_SCOPES);

/**
 * Webhook deliveries have no scope of their own yet: every key that may sign in sees them.
 * When the events API adds `event:read`, this is the one line to change.
 */
export const DELIVERIES_SCOPE: Scope | undefined = 'event:read';

/** Each section shows at most this many rows, newest first (soonest deadline first for chargebacks). */
export const SECTION_LIMIT = 20;
/** Open chargebacks are picked from this many most recent chargebacks (one Query). */
export const CHARGEBACK_WINDOW = 100;
/** Webhook deliveries are the attempts of this many most recent events of the scope. */
export const DELIVERY_EVENT_WINDOW = 25;
/** A session lasts this long from sign-in; the key is re-checked on every page regardless. */
export const SESSION_TTL_SECONDS = 4 * 60 * 60;

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

/** Port: the most recent delivery attempts of the caller's organization and mode, newest first. */
export interface DeliveryLog {
  recentDeliveries(principal: Principal, limit: number): Promise<DeliveryAttempt[]>;
}

/** A signed-in browser: the key it signed in with, known only by its token hash. */
export interface DashboardSession {
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
}

/** Port: sessions by the random id the cookie carries. */
export interface DashboardSessionStore {
  create(sessionId: string, session: DashboardSession): Promise<void>;
  find(sessionId: string): Promise<DashboardSession | undefined>;
  remove(sessionId: string): Promise<void>;
}

/** 32 random bytes, base64url: the only thing the cookie holds. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** One section of the overview: its rows, or the scope the key lacks to see them. */
export type Section<T> = { allowed: true; items: T[]; more: boolean } | { allowed: false; scope: Scope };

export function canSee(principal: Principal, scope: Scope | undefined): boolean {
  return scope === undefined || principal.scopes.includes(scope);
}

export function canSignIn(principal: Principal): boolean {
  return DASHBOARD_SCOPES.some((scope) => principal.scopes.includes(scope));
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
