import { BalanceSchema, RefundListSchema, balanceAdjustmentBody, refundCreateBody, refundResourceSchema, refundTransitionBody , listRefundsQuery } from '../domain/refunds';
import { ListQuery } from '../pagination';
import { defineList, defineRetrieve, defineOperation, NoQuery, NoParams, pathParam } from './operation';
import { paymentId } from './payments';

const refundId = /* @__PURE__ */ (() => pathParam('id', 'The refund id (`rf_…`).', 'rf_01jd2x3y4z5a6b7c8d9e0f1g2h'))();

export const createRefund = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/payments/{id}/refunds',
  handler: 'create-refund',
  audit: { action: 'refund.created', target: 'created' },
  table: 'write',
  auth: { scope: 'refund:create' },
  params: paymentId,
  query: NoQuery,
  body: refundCreateBody,
  tag: 'Refunds',
  summary: 'Refund a payment',
  description:
    'Refunds a paid EUR payment; without `amount`, the whole refundable rest. Every new refund is `pending`: when the balance covers it, its amount ' +
    'is reserved at once (`on_hold: false`); otherwise it carries `on_hold: true`, reserves nothing, and is covered automatically, oldest first, as ' +
    'soon as the balance allows. A covered refund can be canceled until the cancel window (default 5 minutes) has passed; then the minute job ' +
    'moves it to `processing`, and at its next run to `refunded`.',
  success: { status: 201, description: 'The new refund.', schema: refundResourceSchema },
  errors: {
    422: { description: 'The payment is not paid or not in EUR; the amount is not positive, exceeds the refundable rest or the overcapture ceiling.' },
  },
});

export const getRefund = /* @__PURE__ */ defineRetrieve({
  path: '/v1/refunds/{id}',
  handler: 'get-refund',
  auth: { scope: 'refund:read' },
  params: refundId,
  tag: 'Refunds',
  summary: 'Retrieve a refund',
  description: 'The refund object.',
  success: { status: 200, description: 'The refund.', schema: refundResourceSchema },
});

export const listRefunds = /* @__PURE__ */ defineList({
  path: '/v1/refunds',
  handler: 'list-refunds',
  auth: { scope: 'refund:read' },
  params: NoParams,
  query: listRefundsQuery,
  tag: 'Refunds',
  summary: 'List refunds',
  description: 'Organization-wide, newest first, with optional `status` and creation range (`created[gte]`, `created[lt]`) filters.',
  success: { status: 200, description: 'A page of refunds.', schema: RefundListSchema },
});

export const listPaymentRefunds = /* @__PURE__ */ defineList({
  path: '/v1/payments/{id}/refunds',
  handler: 'list-payment-refunds',
  auth: { scope: 'refund:read' },
  params: paymentId,
  query: ListQuery,
  tag: 'Refunds',
  summary: "List a payment's refunds",
  description: 'The refunds of one payment, every status, newest first (organization-wide).',
  success: { status: 200, description: "A page of the payment's refunds.", schema: RefundListSchema },
});

export const cancelRefund = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/refunds/{id}/cancel',
  handler: 'cancel-refund',
  audit: { action: 'refund.canceled', target: 'path' },
  table: 'write',
  auth: { scope: 'refund:create' },
  params: refundId,
  query: NoQuery,
  tag: 'Refunds',
  summary: 'Cancel a refund',
  description:
    'Cancels a `pending` refund, on hold or not (beyond the contract, as Mollie lets a merchant cancel a refund that is not yet processed): ' +
    'it becomes `canceled`, gives back what it reserved, and no longer counts against the payment.',
  success: { status: 200, description: 'The canceled refund.', schema: refundResourceSchema },
  errors: { 422: { description: 'The refund is not `pending` (attribute `status`).' } },
});

export const testHelperRefundTransition = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/test_helpers/refunds/{id}/transitions',
  handler: 'test-helper-refund-transition',
  audit: { action: 'refund.transitioned', target: 'path' },
  table: 'write',
  auth: { scope: 'refund:create', mode: 'test' },
  params: refundId,
  query: NoQuery,
  body: refundTransitionBody,
  tag: 'Test helpers',
  summary: 'Move a refund',
  description: '`pending` → `processing` → `refunded`; `pending` → `canceled`; `processing` → `failed`; without waiting for the cancel window.',
  success: { status: 200, description: 'The refund.', schema: refundResourceSchema },
  errors: { 422: { description: 'A move the lifecycle forbids, or a balance that does not cover `processing`.' } },
});

export const testHelperBalanceAdjustment = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/test_helpers/balance_adjustments',
  handler: 'test-helper-balance-adjustment',
  audit: { action: 'balance.adjusted', target: 'created' },
  table: 'write',
  auth: { scope: 'refund:create', mode: 'test' },
  params: NoParams,
  query: NoQuery,
  body: balanceAdjustmentBody,
  tag: 'Test helpers',
  summary: 'Adjust the balance',
  description: 'Adds a signed amount to the test balance.',
  success: { status: 201, description: 'The balance after the adjustment.', schema: BalanceSchema },
});

export const refundOperations = [createRefund, getRefund, listRefunds, listPaymentRefunds, cancelRefund, testHelperRefundTransition, testHelperBalanceAdjustment];
