import type { BalanceStore, PendingCredit } from '../db/balance';
import type { BalanceRef } from '../domain/balance';
import { logger } from '../observability/logger';

export interface CreditRollDeps {
  balances: Pick<BalanceStore, 'rollCredits'>;
  /** After a balance was credited: its held refunds, oldest first, take what it covers. */
  onBalanceCredited: (ref: BalanceRef) => Promise<unknown>;
  /** A link whose shards counted a payment: its count for the lists refreshed (payment-link-repository.ts). */
  relistLink: (linkId: string) => Promise<void>;
}

const balanceKeyOf = (ref: BalanceRef) => `${ref.orgId}#${ref.mode}#${ref.currency}`;

/**
 * Paid payments' pending credits into their balances (decisions 64), as the table stream hands
 * them over: grouped by balance, each group rolled in (each credit once, however often it is
 * handed over), then that balance's held refunds covered at once. Returns the credits of the
 * balances that could not be rolled, for the stream to hand over again. The links whose shards
 * counted the payments then have their count for the lists refreshed (lag: the stream's).
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
  // Each link once a batch; a link not refreshed is handed over again with its credits (rolled once all the same).
  const linkIds = new Set(credits.flatMap((credit) => (credit.shardedLinkId && !failed.includes(credit) ? [credit.shardedLinkId] : [])));
  await Promise.all(
    [...linkIds].map(async (linkId) => {
      try {
        await deps.relistLink(linkId);
      } catch (error) {
        logger.error("a link's listed paid count not refreshed; the stream hands its credits over again", { linkId, error: error as Error });
        failed.push(...credits.filter((credit) => credit.shardedLinkId === linkId && !failed.includes(credit)));
      }
    }),
  );
  return failed;
}
