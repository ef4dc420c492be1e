import type { BalanceRef } from '../db/balance';
import type { Refund } from '../domain/refunds';

/** What the age of the refund backlog is read from: the balances marked as holding refunds and each one's queue, oldest first. */
export interface HeldRefunds {
  withHeldRefunds(): Promise<BalanceRef[]>;
  holdQueue(ref: BalanceRef, limit: number): Promise<Refund[]>;
}

/**
 * How long the oldest refund still on hold has waited, in seconds (0 when none is held). Read
 * after the process-refunds job, so it measures what the balance still cannot cover.
 */
export async function oldestHeldRefundAgeSeconds(held: HeldRefunds, now: Date): Promise<number> {
  const heads = await Promise.all((await held.withHeldRefunds()).map(async (ref) => (await held.holdQueue(ref, 1))[0]));
  const oldest = Math.min(...heads.filter((refund) => refund?.onHold).map((refund) => Date.parse(refund.createdAt)));
  return Number.isFinite(oldest) ? Math.max(0, Math.round((now.getTime() - oldest) / 1000)) : 0;
}
