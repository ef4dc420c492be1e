import type { Mode } from '../auth/principal';
import type { PublicUrls } from '../config';
import { formatMinor } from '../money';
import { jsonLink } from './links';

export const PAYMENT_STATUSES = ['open', 'paid', 'failed', 'canceled', 'expired'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A payment as stored: money in minor units. */
export interface Payment {
  id: string;
  orgId: string;
  mode: Mode;
  acceptorId: string;
  paymentLinkId: string;
  status: PaymentStatus;
  amountMinor: number;
  currency: string;
  createdAt: string;
  paidAt?: string;
  clientKey?: string;
  customer?: { email?: string; phone?: string };
  billing?: { address?: string };
  webhookUrl?: string;
  /** Sum of this payment's refunds that are not failed or canceled; raised by conditional writes only. */
  refundedMinor?: number;
}

/** The minimal payment shape of a payment link's payment sub-list. */
export function paymentListItem(payment: Payment) {
  return {
    object: 'payment' as const,
    id: payment.id,
    status: payment.status,
    amount: { value: formatMinor(payment.amountMinor), currency: payment.currency },
    created_at: payment.createdAt,
    paid_at: payment.paidAt ?? null,
    payment_link_id: payment.paymentLinkId,
  };
}

/** The payment object of `GET /v1/payments/:id` (product-decisions §5). */
export function paymentResource(payment: Payment, urls: PublicUrls) {
  return {
    ...paymentListItem(payment),
    acceptor_id: payment.acceptorId,
    org_id: payment.orgId,
    mode: payment.mode,
    ...(payment.customer ? { customer: payment.customer } : {}),
    ...(payment.billing ? { billing: payment.billing } : {}),
    links: { api: jsonLink(`${urls.base}/v1/payments/${payment.id}`) },
  };
}
