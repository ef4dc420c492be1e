import type { Mode } from '../auth/principal';

/** One organization's balance in one mode and currency, in minor units. */
export interface BalanceRef {
  orgId: string;
  mode: Mode;
  currency: string;
}

/** The balance a payment, refund or chargeback moves. */
export const balanceOf = (owner: BalanceRef): BalanceRef => ({ orgId: owner.orgId, mode: owner.mode, currency: owner.currency });
