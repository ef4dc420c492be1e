export type Mode = 'test' | 'live';

export const SCOPES = [
  'payment_link:create',
  'payment_link:read',
  'payment_link:update',
  'payment:read',
  'refund:create',
  'refund:read',
  'chargeback:read',
  'chargeback:update',
  'settlement:read',
  'event:read',
  'event:resend',
  'webhook:read',
  'webhook:write',
  'balance:read',
  'audit:read',
  'report:create',
  'report:read',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * Who acts, as an audit record names them (product-decisions §17): a person signed in to the
 * dashboard, or an API key. Idempotency records are kept per actor.
 */
export type Actor = { type: 'user'; id: string; email: string } | { type: 'api_key'; id: string };

/**
 * Who is calling: resolved from the API key or the dashboard session, never from the request
 * body. A person acts with the scopes of their team role (shared/domain/team-roles.ts), in the
 * mode of the page they use, for their whole organization.
 */
export interface Principal {
  actor: Actor;
  orgId: string;
  mode: Mode;
  scopes: readonly Scope[];
  /** Set for acceptor-bound keys; absent for organization-scoped keys. */
  acceptorId?: string;
}
