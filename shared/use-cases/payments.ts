import type { Principal } from '../auth/principal';
import type { PaymentListFilter, PaymentRepository } from '../db/payment-repository';
import type { CustomerEmailIndex } from '../domain/customer-emails';
import { BusinessRuleError } from '../errors';
import { isId } from '../ids';
import { pageRequest } from '../pagination';

/** What a list of payments needs: the payments, and the digest their customers' emails are found by. */
export interface PaymentListDeps {
  payments: Pick<PaymentRepository, 'list'>;
  customerEmails: CustomerEmailIndex;
}

/** The filters of `GET /v1/payments` (product-decisions §18), as `listPaymentsQuery` reads them. */
export interface PaymentListQuery {
  limit?: string;
  starting_after?: string;
  ending_before?: string;
  'created[gte]'?: string;
  'created[lt]'?: string;
  status?: string;
  payment_link?: string;
  customer_email?: string;
}

/**
 * The filter of a payments list: the email as its index digest. A link's payments of one status
 * have no partition of their own (a link of a flash sale holds a great many payments, and a
 * status filter on them would read what it drops), so the pair is a 422.
 */
export async function paymentListFilter(deps: Pick<PaymentListDeps, 'customerEmails'>, query: PaymentListQuery): Promise<PaymentListFilter> {
  if (query.status && query.payment_link) throw new BusinessRuleError('Filter by status or by payment_link, not both', 'status');
  return {
    ...(query.status ? { status: query.status } : {}),
    ...(query.payment_link ? { paymentLinkId: query.payment_link } : {}),
    ...(query.customer_email ? { customerEmailDigest: await deps.customerEmails.digest(query.customer_email) } : {}),
  };
}

/** A page of `GET /v1/payments`: the list rules, then the filters. */
export async function listPayments(deps: PaymentListDeps, principal: Principal, query: PaymentListQuery) {
  const page = pageRequest(query, (value) => isId('payment', value));
  return deps.payments.list(principal, page, await paymentListFilter(deps, query));
}
