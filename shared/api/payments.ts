import { PaymentListSchema, PaymentSchema, listPaymentsQuery } from '../domain/payments';
import { defineList, defineRetrieve, NoParams, pathParam } from './operation';

export const paymentId = /* @__PURE__ */ (() => pathParam('id', 'The payment id (`pay_…`).', 'pay_01jd2x3y4z5a6b7c8d9e0f1g2h'))();

export const listPayments = /* @__PURE__ */ defineList({
  path: '/v1/payments',
  handler: 'list-payments',
  // Finds payments by the digest of their customer's email.
  customerEmails: true,
  auth: { scope: 'payment:read' },
  params: NoParams,
  query: listPaymentsQuery,
  tag: 'Payments',
  summary: 'List payments',
  description:
    'Organization-wide, newest first, with optional filters: `status` or `payment_link`, `customer_email` (exact, case-insensitive), and the creation range ' +
    '(`created[gte]`, `created[lt]`). A link with a status is 422: each filter is a key of its own.',
  success: { status: 200, description: 'A page of payments.', schema: PaymentListSchema },
});

export const getPayment = /* @__PURE__ */ defineRetrieve({
  path: '/v1/payments/{id}',
  handler: 'get-payment',
  auth: { scope: 'payment:read' },
  params: paymentId,
  tag: 'Payments',
  summary: 'Retrieve a payment',
  description: 'A payment of a payment link.',
  success: { status: 200, description: 'The payment.', schema: PaymentSchema },
});

export const paymentOperations = [listPayments, getPayment];
