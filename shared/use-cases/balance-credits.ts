import type { BalanceStore, PendingCredit } from '../db/balance';
import type { BalanceRef } from '../domain/balance';
import { logger } from '../observability/logger';

export interface CreditRollDeps {
  balances: Pick<BalanceStore, 'rollCredits'>;
  /** After a balance was credited: its held refunds, oldest first, take what it covers. */
  onBalanceCredited: (ref: BalanceRef) => Promise<unknown>;
}

const balanceKeyOf = (ref: BalanceRef) => `${ref.orgId}#${ref.mode}#${ref.currency}`;

/**
 * Paid payments' pending credits into their balances (decisions 64), as the table stream hands
 * them over: grouped by balance, each group rolled in (each credit once, however often it is
 * handed over), then that balance's held refunds covered at once. Returns the credits of the
 * balances that could not be rolled, for the stream to hand over again.
 */
export async function rollPendingCredits(deps: CreditRollDeps, credits: PendingCredit[]): Promise<PendingCredit[]> {
  const groups = new Map<string, PendingCredit[]>();
  for (const credit of credits) groups.set(balanceKeyOf(credit.ref), [...(groups.get(balanceKeyOf(credit.ref)) ?? []), credit]);
  const failed: PendingCredit[] = [];
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const ref = group[0].ref;
      try {
        await deps.balances.rollCredits(ref, group);
      } catch (error) {
        logger.error('pending credits not rolled into their balance; the stream hands them over again', { orgId: ref.orgId, mode: ref.mode, credits: group.length, error: error as Error });
        failed.push(...group);
        return;
      }
      await deps.onBalanceCredited(ref);
    }),
  );
  return failed;
}
