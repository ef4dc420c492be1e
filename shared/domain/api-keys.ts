import type { StoredApiKey } from '../auth/key-store';

/** API keys as the dashboard manages them (product-decisions §17): the roll's overlaps and a key's state. */

/** How long a rolled key keeps working beside its replacement: the form's four choices. */
export const ROLL_OVERLAPS = { now: 0, '1 hour': 3_600, '24 hours': 86_400, '7 days': 604_800 } as const;
export type RollOverlap = keyof typeof ROLL_OVERLAPS;

/** A key's state as the page shows it: `active`, `expiring` until its end, or `revoked`. */
export function keyState(key: Pick<StoredApiKey, 'validUntil'>, now: Date): { state: 'active' } | { state: 'expiring'; at: string } | { state: 'revoked'; at: string } {
  if (!key.validUntil) return { state: 'active' };
  return Date.parse(key.validUntil) > now.getTime() ? { state: 'expiring', at: key.validUntil } : { state: 'revoked', at: key.validUntil };
}
