import type { PublicUrls } from '../config';
import type { ChargebackRepository } from '../db/chargeback-repository';
import type { TransactAction } from '../db/outbox';
import type { PaymentRepository } from '../db/payment-repository';
import type { BalanceRef } from '../domain/balance';
import {
  ChargebackFeed,
  chargebackEvent,
  dueReminder,
  feedIdentities,
  reminded,
  reminderEvent,
  openChargeback,
  transitionChargeback,
  type Chargeback,
  type ChargebackStatus,
  type Evidence,
  type ChargebackTrigger,
  type FeedIdentity,
  type OpenChargebackInput,
} from '../domain/chargebacks';
import type { Payment } from '../domain/payments';
import { BusinessRuleError, DependencyUnavailableError, NotFoundError, ServiceError } from '../errors';
import { newId } from '../ids';
import { inJobScope, type JobScope } from '../jobs';

/** `chargebacks[1].amount.value` for an issue at ['chargebacks', 1, 'amount', 'value']. */
function fieldPath(path: PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i ? '.' : ''}${String(part)}`)).join('');
}

function refuseFeed(detail: string, attribute: string): never {
  throw new BusinessRuleError(`Refused the whole feed, nothing was ingested: ${attribute}: ${detail}`, attribute);
}

/**
 * The feed stopped at entry `index` because a read or write failed: where, what was ingested,
 * and that running the file again is safe (applied entries are skipped). A service error's
 * detail is said; the table's own text is only the error's cause, for the function's log.
 */
function feedStopped(index: number, ingested: number, doing: string, cause: unknown): DependencyUnavailableError {
  const why = cause instanceof ServiceError ? `${doing} failed: ${cause.message}` : `the table failed ${doing}`;
  const before = ingested === 0 ? 'nothing was ingested' : `${ingested} ${ingested === 1 ? 'entry was' : 'entries were'} ingested before it, none after it`;
  const error = new DependencyUnavailableError(`Stopped at chargebacks[${index}]: ${why}; ${before}; running the file again is safe: entries already ingested are skipped`);
  error.cause = cause;
  return error;
}

export interface FeedResult {
  ingested: number;
  rejected?: { index: number; payment_id: string; detail: string }[];
}

export interface ChargebackDeps {
  chargebacks: ChargebackRepository;
  payments: Pick<PaymentRepository, 'get'>;
  /** Called after a won chargeback credited the balance back (held refunds may now be covered). */
  onBalanceCredited: (ref: BalanceRef, urls: PublicUrls) => Promise<unknown>;
  now: () => Date;
  /** Outside a request (jobs, the feed), links and event data use the configured public URLs. */
  configuredUrls: () => PublicUrls;
}

export function createChargebackUseCases({ chargebacks, payments, onBalanceCredited, now: clock, configuredUrls }: ChargebackDeps) {
  const record = (chargeback: Chargeback, payment: Payment, urls: PublicUrls, feedIdentity?: FeedIdentity, also: TransactAction[] = []) =>
    chargebacks.create(chargeback, payment.amountMinor, chargebackEvent(chargeback, urls), feedIdentity, also);

  /**
   * Opens a chargeback on a paid payment.
   * 1. Build the `open` chargeback (domain: defaults, currency and amount rules).
   * 2. One transaction: the chargeback, the balance debit, the `open` event; payment still paid.
   */
  async function open(input: Omit<OpenChargebackInput, 'id' | 'now'>, urls: PublicUrls): Promise<Chargeback> {
    const chargeback = openChargeback({ ...input, id: newId('chargeback'), now: clock() });
    await record(chargeback, input.payment, urls);
    return chargeback;
  }

  /**
   * Opens a chargeback that claims `identity` (an acquirer's dispute, product-decisions §12),
   * with `also`: a `duplicate` when the identity was claimed before, and nothing is written.
   */
  async function openOnce(input: Omit<OpenChargebackInput, 'id' | 'now'>, identity: FeedIdentity, urls: PublicUrls, also: TransactAction[] = []): Promise<'created' | 'duplicate'> {
    const chargeback = openChargeback({ ...input, id: newId('chargeback'), now: clock() });
    return record(chargeback, input.payment, urls, identity, also);
  }

  /**
   * Moves a chargeback along the state table (a dispute with what was submitted, `evidence`).
   * 1. Check the move with the domain's transition function (forbidden: 422 `status`).
   * 2. Write it, with its balance change and event (and `also`), under the condition that the status is unchanged.
   * 3. If another writer moved it first, check the move again against what is stored now.
   */
  function transition(
    current: Chargeback,
    to: ChargebackStatus,
    urls: PublicUrls,
    trigger: ChargebackTrigger = 'action',
    now = clock(),
    evidence?: Evidence,
    also: TransactAction[] = [],
  ): Promise<Chargeback> {
    return move(current, to, urls, { trigger, now, evidence, also });
  }

  /**
   * The acquirer's ruling on a dispute's chargeback (product-decisions §12): the move the scheme
   * decided, whatever the state here (ACQUIRER_NEXT), keeping the ruling's instant; a won
   * chargeback lost after all takes its amount again only within what the payment has left
   * (`payment`: its amount; §6), else 422.
   */
  function rule(current: Chargeback, to: 'won' | 'lost', urls: PublicUrls, ruling: { at: string; paymentAmountMinor: number }, also: TransactAction[] = []): Promise<Chargeback> {
    return move(current, to, urls, { trigger: 'acquirer', now: clock(), also, acquirerEventAt: ruling.at, paymentAmountMinor: ruling.paymentAmountMinor });
  }

  async function move(
    current: Chargeback,
    to: ChargebackStatus,
    urls: PublicUrls,
    options: { trigger: ChargebackTrigger; now: Date; evidence?: Evidence; also: TransactAction[]; acquirerEventAt?: string; paymentAmountMinor?: number },
  ): Promise<Chargeback> {
    for (;;) {
      const moved = transitionChargeback(current, to, options.now, options.trigger, options.evidence);
      const next = options.acquirerEventAt ? { ...moved, acquirerEventAt: options.acquirerEventAt } : moved;
      const from = current.status;
      const outcome = await chargebacks.saveTransition(from, next, chargebackEvent(next, urls), options.also, options.paymentAmountMinor);
      if (outcome.saved) {
        // A won chargeback credits the balance back: held refunds may now be covered.
        if (next.status === 'won') await onBalanceCredited({ orgId: next.orgId, mode: next.mode, currency: next.currency }, urls);
        return next;
      }
      if (!outcome.current) throw new NotFoundError();
      current = outcome.current;
    }
  }

  /**
   * The acquirer feed (live mode): `{"chargebacks": [{payment_id, reason, amount, deadline_at?, acquirer?, consumer_account_number?}]}`.
   * 1. Validate the whole document with zod (every field bounded); any issue refuses it whole,
   *    naming entry and field.
   * 2. Check every entry against its payment (exists, live, paid; currency; amount); any failure
   *    refuses it whole. Nothing is written before the whole file has passed.
   * 3. Open each chargeback (one transaction each), claiming the entry's identity with it
   *    (`feedIdentities`): an entry applied by an earlier run of the file, fixed or not, is skipped.
   *    An entry the payment no longer takes (its chargebacks would exceed it, decisions §6) is
   *    reported in `rejected`; the others are ingested.
   * A read or write the table fails stops the feed with where it stopped and what was ingested,
   * never the SDK's text: running the file again is then safe.
   */
  async function ingest(document: unknown, urls: PublicUrls): Promise<FeedResult> {
    const parsed = ChargebackFeed.safeParse(document);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
      refuseFeed(issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message, fieldPath(path) || 'chargebacks');
    }
    const entries = parsed.data.chargebacks;
    const identities = feedIdentities(entries);
    const opened: { chargeback: Chargeback; payment: Payment; index: number }[] = [];
    for (const [i, entry] of entries.entries()) {
      const payment: Payment | undefined = await payments.get(entry.payment_id).catch((error: unknown) => {
        throw feedStopped(i, 0, 'reading its payment', error);
      });
      if (!payment) refuseFeed(`payment ${entry.payment_id} does not exist`, `chargebacks[${i}].payment_id`);
      if (payment.mode !== 'live') refuseFeed(`payment ${entry.payment_id} is not a live payment`, `chargebacks[${i}].payment_id`);
      try {
        const chargeback = openChargeback({
          id: newId('chargeback'),
          now: clock(),
          // The write decides what the payment has left: a replayed entry is a duplicate before it is an excess.
          payment: { ...payment, chargedBackMinor: 0 },
          reason: entry.reason,
          amount: entry.amount,
          deadlineAt: entry.deadline_at,
          acquirer: entry.acquirer,
          consumerAccountNumber: entry.consumer_account_number,
        });
        opened.push({ chargeback, payment, index: i });
      } catch (error) {
        if (error instanceof ServiceError) refuseFeed(error.message, `chargebacks[${i}].${error.attribute ?? 'payment_id'}`);
        throw error;
      }
    }
    let ingested = 0;
    const rejected: { index: number; payment_id: string; detail: string }[] = [];
    for (const { chargeback, payment, index } of opened) {
      try {
        if ((await record(chargeback, payment, urls, identities[index])) === 'created') ingested++;
      } catch (error) {
        // The payment as it stands now does not take it: an earlier entry of this feed (or a
        // concurrent one) took what it had left, or it is no longer paid.
        if (error instanceof BusinessRuleError) rejected.push({ index, payment_id: payment.id, detail: error.message });
        else throw feedStopped(index, ingested, 'writing it', error);
      }
    }
    return { ingested, ...(rejected.length ? { rejected } : {}) };
  }

  /**
   * Minute job: every `open` chargeback past its deadline_at becomes `accepted`, with its event.
   * Reads only the sparse DUE index; each acceptance is conditional on the status still being open.
   */
  async function acceptOverdue(now: Date, only?: JobScope): Promise<number> {
    const urls = configuredUrls();
    let accepted = 0;
    for await (const chargeback of chargebacks.overdue(now)) {
      if (!inJobScope(chargeback, only)) continue;
      try {
        await transition(chargeback, 'accepted', urls, 'deadline', now);
        accepted++;
      } catch (error) {
        // Moved by someone else since the query (no longer open): nothing to do.
        if (!(error instanceof BusinessRuleError)) throw error;
      }
    }
    return accepted;
  }

  /**
   * Minute job: the deadline reminders of §13, each once per chargeback.
   * 1. Read the chargebacks whose next reminder is due (sparse GSI4 entries, never a scan).
   * 2. For each, the reminder of the window it is in (72 or 24 hours left), if any is still owed.
   * 3. Record it with its `transactions.chargeback.deadline_approaching` event, only while the
   *    chargeback is open and owed that reminder: a concurrent sweep that wrote first, or an
   *    answer, leaves nothing to send (step 2 again on what is stored).
   */
  async function remindDeadlines(now: Date, only?: JobScope): Promise<number> {
    const urls = configuredUrls();
    let sent = 0;
    for await (const due of chargebacks.remindersDue(now)) {
      if (!inJobScope(due, only)) continue;
      let current: Chargeback | undefined = due;
      for (let hours = dueReminder(current, now); current && hours; hours = current && dueReminder(current, now)) {
        const outcome = await chargebacks.saveReminder(current, reminded(current, hours), reminderEvent(current, hours, urls, now));
        if (outcome.saved) {
          sent++;
          break;
        }
        current = outcome.current;
      }
    }
    return sent;
  }

  return { chargebacks, payments, open, openOnce, transition, rule, ingest, acceptOverdue, remindDeadlines };
}

export type ChargebackUseCases = ReturnType<typeof createChargebackUseCases>;
