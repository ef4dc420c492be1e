import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { balanceOf, paymentMovement } from '../domain/balance';
import { countsOnShards, itemPaidCount, PAID_SHARDS, StaleLinkError, type PaymentLink, type VersionedLink } from '../domain/payment-links';
import { PaymentNotOpenError, type CaptureChange, type CaptureStatus, type Payment } from '../domain/payments';
import { type OutboxEvent } from '../events';
import { balanceChange, pendingCreditPut } from './balance';
import { cancellationReasons } from './conditional';
import { queryDuePage } from './due';
import { stripKeys } from './entity';
import { checkoutSessionEntity, OPEN_PAYMENT_SHARDS, paymentLinkEntity, paymentLinkPaidShardEntity } from './entities';
import * as keys from './keys';
import { transactWithEvents, withEvents, type TransactAction } from './outbox';
import { transactWrite } from './side-effects';
import { lostToContention } from './transaction-conflict';
import { paymentCreateAction, paymentOutcomeAction } from './payment-repository';
import { INDEXES } from './table';

/** A payer's round of the paid transition, as prepared (`preparePaid`): the same request however often it is sent. */
export interface PaidTransaction {
  read: VersionedLink;
  paymentId: string;
  items: TransactAction[];
}

/**
 * The paid count raised on the link as an Update (see `preparePaid`): `next` is the link after
 * the payment, `read` the link it was computed from. At the limit the link turns inactive, with
 * its status list key moved and its expiry entry removed.
 *
 * The condition holds the link's limit as it is at commit time, whatever was read: an unlimited
 * link must still be unlimited, a limited one still at the limit and the paid count read (so
 * `remaining_payments` in the events is exact). A merchant who sets or lowers the limit while
 * payers are in flight sends them back to read it again.
 */
function paidCountUpdate(tableName: string, read: VersionedLink, next: PaymentLink, paidAt: string): TransactAction {
  const inactivates = next.status !== read.status;
  const conditions = ['#status = :active', '(attribute_type(#expiresAt, :null) OR #expiresAt > :paidAt)'];
  if (read.paymentsLimit === null) conditions.push('(attribute_not_exists(#paymentsLimit) OR attribute_type(#paymentsLimit, :null))');
  else conditions.push('#paymentsLimit = :readLimit', '#paidCount = :readCount');
  if (read.firstPaidAt === null) conditions.push('attribute_type(#firstPaidAt, :null)');
  const sets = ['#paidCount = #paidCount + :one', '#version = #version + :one', '#lastPaidAt = :paidAt', '#firstPaidAt = :firstPaidAt'];
  if (inactivates) sets.push('#status = :nextStatus', `#statusList = :statusList`);
  return {
    Update: {
      TableName: tableName,
      Key: keys.paymentLink(next.id),
      UpdateExpression: `SET ${sets.join(', ')}${inactivates ? ` REMOVE #duePk, #dueSk` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: {
        '#status': 'status',
        '#expiresAt': 'expiresAt',
        '#paidCount': 'paidCount',
        '#paymentsLimit': 'paymentsLimit',
        '#version': 'version',
        '#lastPaidAt': 'lastPaidAt',
        '#firstPaidAt': 'firstPaidAt',
        ...(inactivates ? { '#statusList': INDEXES.gsi2.pk, '#duePk': INDEXES.due.pk, '#dueSk': INDEXES.due.sk } : {}),
      },
      ExpressionAttributeValues: {
        ':active': 'active',
        ':null': 'NULL',
        ':paidAt': paidAt,
        ':one': 1,
        ':firstPaidAt': next.firstPaidAt,
        ...(read.paymentsLimit !== null ? { ':readLimit': read.paymentsLimit, ':readCount': itemPaidCount(read) } : {}),
        ...(inactivates ? { ':nextStatus': next.status, ':statusList': paymentLinkEntity.partition('gsi2', paymentLinkEntity.definition.values!(next as VersionedLink, undefined)) } : {}),
      },
    },
  };
}

/**
 * An unlimited link's paid payment counted on one of its shards, picked at random (the link
 * item is not written, so its payers do not contend on it). The shard must still be open and of
 * the generation read: a writer that changed how the link can be paid closed it first, and a
 * payer that read the link before must read it again (and may find it limited, inactive or
 * expired). A shard never written yet is created.
 */
function paidShardUpdate(tableName: string, read: VersionedLink, paidAt: string): TransactAction {
  const { generation } = read.shards!;
  return {
    Update: {
      TableName: tableName,
      Key: keys.paymentLinkPaidShard(read.id, Math.floor(Math.random() * PAID_SHARDS)),
      UpdateExpression: 'SET #paidCount = if_not_exists(#paidCount, :zero) + :one, #firstPaidAt = if_not_exists(#firstPaidAt, :paidAt), #lastPaidAt = :paidAt, #entity = :entity',
      ConditionExpression: `attribute_not_exists(#closedAt) AND ${generation === 0 ? 'attribute_not_exists(#generation)' : '#generation = :generation'}`,
      ExpressionAttributeNames: { '#paidCount': 'paidCount', '#firstPaidAt': 'firstPaidAt', '#lastPaidAt': 'lastPaidAt', '#entity': 'entity', '#closedAt': 'closedAt', '#generation': 'generation' },
      ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':paidAt': paidAt, ':entity': paymentLinkPaidShardEntity.definition.name, ...(generation === 0 ? {} : { ':generation': generation }) },
    },
  };
}

/**
 * The checkout's writes: a customer's payment opened on a link, paid (counted on the link or one of its shards) or
 * ended otherwise, and the customer's checkout session. Apart from the link's own writes
 * (payment-link-repository.ts), which the link's API functions carry without these.
 */
export function createCheckoutRepository(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /** A customer's new open payment on a link: the payment, their checkout session and the events. */
    async openPayment(payment: Payment, clientKey: string, events: OutboxEvent[]): Promise<void> {
      const session = { Put: { TableName: tableName, Item: checkoutSessionEntity.item({ paymentId: payment.id }, { pl: payment.paymentLinkId, clientKey }) } };
      await transactWithEvents(db, tableName, [paymentCreateAction(tableName, payment), session], events);
    },

    /**
     * The paid transition, all or nothing: the payment counted, the payment paid (still open) and
     * its credit pending in the ledger (rolled into the balance after, `rollCredits`), with the
     * events. An active unlimited link whose shards are open counts it on a shard
     * (`paidShardUpdate`), its link item untouched; any other link on the link item, whose
     * condition is what the payment depends
     * on, not its version: still active and not expired and, for a limited link, still at the
     * paid count the events were computed from (`remaining_payments`, the inactivation). An
     * unrelated change (a new description) never sends a payer back; the version is still
     * raised, so a whole-item write read before this one is refused. `also` commits with it
     * (live: the capture owed to the acquirer, the notification's processed mark). Prepared once
     * for a payer's round, sent by `recordPaid`.
     */
    preparePaid(read: VersionedLink, next: PaymentLink, paid: Payment, events: OutboxEvent[], also: TransactAction[] = []): PaidTransaction {
      const onShard = countsOnShards(read);
      const credit = pendingCreditPut(tableName, balanceOf(paid), paymentMovement(paid.id, paid.amountMinor), onShard ? paid.paymentLinkId : undefined);
      const counted = onShard ? paidShardUpdate(tableName, read, paid.paidAt!) : paidCountUpdate(tableName, read, next, paid.paidAt!);
      return { read, paymentId: paid.id, items: withEvents(tableName, [counted, paymentOutcomeAction(tableName, paid), credit, ...also], events) };
    },

    /**
     * Sends a prepared paid transition, once. Throws StaleLinkError (with the link the round was
     * built from, when the link or its shard refused it: the payer reads the link again; without
     * one when a transaction in flight held one of its items or a throttle refused it, which
     * loses the round all the same) or PaymentNotOpenError. The payer's loop retries its
     * rounds (checkout.ts), sending one lost to contention again as it was prepared: every
     * sending of the payment's paid transition is one logical write, so the same request
     * carries the same ClientRequestToken, and a commit whose answer was lost is answered as the
     * success it was (docs/decisions.md 88).
     */
    async recordPaid({ read, paymentId, items }: PaidTransaction): Promise<void> {
      try {
        await transactWrite(db, items, paymentId);
      } catch (error) {
        if (lostToContention(error)) throw new StaleLinkError(undefined);
        const reasons = cancellationReasons(error);
        // Refused for what the link (or its shard) is now: the payer reads it again after its wait (payOnLink, decisions 159).
        if (reasons?.[0]?.code === 'ConditionalCheckFailed') throw new StaleLinkError(read);
        if (reasons?.[1]?.code === 'ConditionalCheckFailed') throw new PaymentNotOpenError();
        throw error;
      }
    },

    /**
     * An open payment written anew with its events, while it is still open and, with
     * `activityRead`, untouched since (PaymentNotOpenError otherwise): an outcome other than
     * paid, the expiry sweep's, or a returning customer's new activity; `also` commits with it.
     */
    async updateOpenPayment(payment: Payment, events: OutboxEvent[], activityRead?: string, also: TransactAction[] = []): Promise<void> {
      try {
        await transactWithEvents(db, tableName, [paymentOutcomeAction(tableName, payment, activityRead), ...also], events);
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code === 'ConditionalCheckFailed') throw new PaymentNotOpenError();
        throw error;
      }
    },

    /**
     * A paid live payment's capture as the acquirer reports it (`next`: its status, reference,
     * the instant of the news, a voided authorisation), while it is still as `payment` holds it
     * (false otherwise: another notification moved it first). A capture that fails takes the
     * payment's credit back from the balance; one that succeeds after a failure gives it back
     * (docs/decisions.md 54). `also` commits with it.
     */
    async recordCapture(payment: Payment, next: CaptureChange, also: TransactAction[] = []): Promise<boolean> {
      const read = payment.acquirer!;
      const tookMoney = (capture: CaptureStatus | undefined) => capture !== 'failed';
      const delta = (tookMoney(next.capture) ? 0 : -payment.amountMinor) + (tookMoney(read.capture) ? 0 : payment.amountMinor);
      const fields = ['capture', 'captureReference', 'captureEventAt', 'voided'] as const;
      const names = Object.fromEntries(fields.map((field) => [`#${field}`, field]));
      // Still as read, field by field: the condition is the state the change was decided on.
      const asRead = fields.map((field) => (read[field] === undefined ? `attribute_not_exists(#acquirer.#${field})` : `#acquirer.#${field} = :read_${field}`));
      const set = fields.filter((field) => next[field] !== undefined).map((field) => `#acquirer.#${field} = :${field}`);
      const capture = {
        Update: {
          TableName: tableName,
          Key: keys.payment(payment.id),
          UpdateExpression: `SET ${set.join(', ')}`,
          ConditionExpression: asRead.join(' AND '),
          ExpressionAttributeNames: { '#acquirer': 'acquirer', ...names },
          ExpressionAttributeValues: {
            ...Object.fromEntries(fields.filter((field) => read[field] !== undefined).map((field) => [`:read_${field}`, read[field]])),
            ...Object.fromEntries(fields.filter((field) => next[field] !== undefined).map((field) => [`:${field}`, next[field]])),
          },
        },
      };
      try {
        await transactWithEvents(db, tableName, [capture, ...(delta === 0 ? [] : balanceChange(tableName, balanceOf(payment), paymentMovement(payment.id, delta))), ...also], []);
        return true;
      } catch (error) {
        if (cancellationReasons(error)?.[0]?.code === 'ConditionalCheckFailed') return false;
        throw error;
      }
    },

    /** Open payments with no activity since `idleSince`: each shard of the sparse DUE index in turn, longest idle first, page by page. */
    async *idlePayments(idleSince: string): AsyncGenerator<Payment> {
      for (let shard = 0; shard < OPEN_PAYMENT_SHARDS; shard++) {
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await queryDuePage(db, tableName, keys.openPaymentsDue(shard), { upTo: `${idleSince}#~`, startKey });
          for (const item of page.items) yield stripKeys<Payment>(item)!;
          startKey = page.nextKey;
        } while (startKey);
      }
    },

    /** The payment id of a customer's checkout session on a link (client_key cookie). */
    async sessionPayment(linkId: string, clientKey: string): Promise<string | undefined> {
      const result = await db.send(
        new GetCommand({ TableName: tableName, Key: keys.checkoutSession(linkId, clientKey), ConsistentRead: true }),
      );
      return result.Item?.paymentId as string | undefined;
    },
  };
}

export type CheckoutRepository = ReturnType<typeof createCheckoutRepository>;
