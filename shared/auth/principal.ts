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
] as const;

export type Scope = (typeof SCOPES)[number];

/** Who is calling: resolved from the API key, never from the request body. */
export interface Principal {
  keyId: string;
  orgId: string;
  mode: Mode;
  scopes: readonly Scope[];
  /** Set for acceptor-bound keys; absent for organization-scoped keys. */
  acceptorId?: string;
}
