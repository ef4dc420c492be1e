import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Principal } from '../auth/principal';
import type { HostedPayment } from '../domain/acquirer';
import { PaymentNotOpenError, type Payment } from '../domain/payments';
import { isOwned, type Owner } from '../domain/scope';
import { isId } from '../ids';
import { type CreatedRange, type PageRequest } from '../pagination';
import { withConflictRetry } from './conditional';
import { cursorById, listPage, readList, scopeListPage, scopeListSource, type ListSource } from './list-page';
import { IF_NEW, stripKeys as strip } from './entity';
import { paymentEntity, scopeOf } from './entities';
import * as keys from './keys';

/** The scope's list of payments (all, or of one status): its sort keys are payment ids, so it takes a creation range. */
const SCOPE_LIST = { createdIds: 'payment' } as const;

/** The table item of a payment (shared/db/entities.ts). */
export const paymentItem = (payment: Payment) => paymentEntity.item(payment);

/**
 * A TransactWriteItems action writing an `open` payment anew (its outcome, its last activity):
 * fails unless it is still open and, with `activityRead`, still at the activity read (so that
 * the expiry sweep never ends a payment its customer just came back to).
 */
export function paymentOutcomeAction(tableName: string, next: Payment, activityRead?: string) {
  return {
    Put: {
      TableName: tableName,
      Item: paymentItem(next),
      ConditionExpression: activityRead === undefined ? '#status = :open' : '#status = :open AND #lastActivityAt = :activityRead',
      ExpressionAttributeNames: { '#status': 'status', ...(activityRead === undefined ? {} : { '#lastActivityAt': 'lastActivityAt' }) },
      ExpressionAttributeValues: { ':open': 'open', ...(activityRead === undefined ? {} : { ':activityRead': activityRead }) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    },
  };
}

/** A TransactWriteItems action creating a payment. */
export function paymentCreateAction(tableName: string, payment: Payment) {
  return {
    Put: {
      TableName: tableName,
      Item: paymentItem(payment),
      ...IF_NEW,
    },
  };
}

export function createPaymentRepository(db: DynamoDBDocumentClient, tableName: string) {
  async function get(id: string): Promise<Payment | undefined> {
    if (!isId('payment', id)) return undefined;
    const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.payment(id), ConsistentRead: true }));
    return strip<Payment>(result.Item);
  }

  /** An Update of a payment conditioned on its still being open. */
  async function whileOpen(paymentId: string, update: string, names: Record<string, string>, values: Record<string, unknown>): Promise<void> {
    try {
      await withConflictRetry(() =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.payment(paymentId),
            UpdateExpression: update,
            ConditionExpression: '#status = :open',
            ExpressionAttributeNames: { '#status': 'status', ...names },
            ExpressionAttributeValues: { ':open': 'open', ...values },
          }),
        ),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new PaymentNotOpenError();
      throw error;
    }
  }

  return {
    get,

    async put(payment: Payment): Promise<void> {
      await db.send(new PutCommand({ TableName: tableName, Item: paymentItem(payment) }));
    },

    /** Keeps the acquirer's hosted payment page on a live payment that is still open (PaymentNotOpenError otherwise). */
    async attachSession(paymentId: string, session: HostedPayment): Promise<void> {
      await whileOpen(paymentId, 'SET #acquirer.#session = :session', { '#acquirer': 'acquirer', '#session': 'session' }, { ':session': session });
    },

    /**
     * The customer's details of `detailed` on its payment while that is still open (live: they are
     * given before the acquirer's page), with the email index's entry when it has an email.
     */
    async saveDetails(detailed: Payment): Promise<void> {
      const { customer, billing, customerEmailDigest } = detailed;
      const details = { customer, billing, customerEmailDigest, ...paymentEntity.indexKeys('gsi4', detailed) };
      const sets = Object.entries(details).filter(([, value]) => value !== undefined);
      if (sets.length === 0) return;
      await whileOpen(
        detailed.id,
        `SET ${sets.map(([name]) => `#${name} = :${name}`).join(', ')}`,
        Object.fromEntries(sets.map(([name]) => [`#${name}`, name])),
        Object.fromEntries(sets.map(([name, value]) => [`:${name}`, value])),
      );
    },

    /**
     * Newest first, in the request's creation range (product-decisions §18): all, of one status,
     * of one link, or of one customer (`customerEmailDigest`: their own GSI4 partition, in which
     * a status or a link is a filter on that customer's few payments). Each list's Query keys
     * on its filter, so a page reads no more than its `limit + 1`.
     */
    async list(principal: Principal, page: PageRequest, filter: PaymentListFilter = {}) {
      const { status, paymentLinkId, customerEmailDigest } = filter;
      const accepts = (payment: Payment) =>
        isOwned(payment, principal) &&
        (!status || payment.status === status) &&
        (!paymentLinkId || payment.paymentLinkId === paymentLinkId) &&
        (!customerEmailDigest || payment.customerEmailDigest === customerEmailDigest);
      if (customerEmailDigest) {
        const conditions = [...(status ? ['#status = :status'] : []), ...(paymentLinkId ? ['#link = :link'] : [])];
        const source: ListSource = {
          index: 'gsi4',
          partitions: [paymentEntity.partition('gsi4', { scope: scopeOf(principal.orgId, principal.mode), email_digest: customerEmailDigest })],
          createdIds: 'payment',
          resolveCursor: cursorById(get, accepts),
          ...(conditions.length
            ? {
                filter: {
                  expression: conditions.join(' AND '),
                  names: { ...(status ? { '#status': 'status' } : {}), ...(paymentLinkId ? { '#link': 'paymentLinkId' } : {}) },
                  values: { ...(status ? { ':status': status } : {}), ...(paymentLinkId ? { ':link': paymentLinkId } : {}) },
                },
              }
            : {}),
        };
        return listPage<Payment>(db, tableName, source, page);
      }
      if (paymentLinkId) {
        if (status) throw new Error('A link\'s payments of one status have no index: the caller refuses the pair');
        // The link's partition is not scoped: another organization's link lists nothing.
        const source: ListSource = { index: 'gsi3', partitions: [keys.paymentsOfLink(paymentLinkId)], createdIds: 'payment', scopedTo: principal, resolveCursor: cursorById(get, accepts) };
        return listPage<Payment>(db, tableName, source, page);
      }
      return scopeListPage<Payment>(db, tableName, paymentEntity, get, principal, page, status, SCOPE_LIST);
    },

    /** Every payment of the list (no filter) in a creation range, in its order: a report's rows. */
    readAll: (owner: Owner, created: CreatedRange) => readList<Payment>(db, tableName, scopeListSource(paymentEntity, owner, undefined, SCOPE_LIST), created),

    /** The payments of one link, newest first. */
    async listOfLink(linkId: string, page: PageRequest) {
      return listPage<Payment>(
        db,
        tableName,
        {
          index: 'gsi3',
          partitions: [keys.paymentsOfLink(linkId)],
          resolveCursor: cursorById(get, (payment) => payment.paymentLinkId === linkId),
        },
        page,
      );
    },
  };
}

export type PaymentRepository = ReturnType<typeof createPaymentRepository>;

/** What `GET /v1/payments` filters by; the email as its index digest (shared/domain/customer-emails.ts). */
export interface PaymentListFilter {
  status?: string;
  paymentLinkId?: string;
  customerEmailDigest?: string;
}
