import { BalanceSchema, RefundListSchema, balanceAdjustmentBody, refundCreateBody, refundResourceSchema, refundTransitionBody } from '../domain/refunds';
import { ListQuery } from '../pagination';
import { defineList, defineRetrieve, defineOperation, NoQuery, NoParams, pathParam } from './operation';
import { paymentId } from './payments';

const refundId = pathParam('id', 'The refund id (`rf_…`).', 'rf_01jd2x3y4z5a6b7c8d9e0f1g2h');

export const createRefund = defineOperation({
  method: 'POST',
  path: '/v1/payments/{id}/refunds',
  handler: 'create-refund',
  table: 'write',
  auth: { scope: 'refund:create' },
  params: paymentId,
  query: NoQuery,
  body: refundCreateBody,
  tag: 'Refunds',
  summary: 'Refund a payment',
  description:
    'Refunds a paid EUR payment; without `amount`, the whole refundable rest. When the balance does not cover it, the refund stays `pending` with ' +
    '`on_hold: true` and is processed automatically once it does.',
  success: { status: 201, description: 'The new refund.', schema: refundResourceSchema },
  errors: {
    422: { description: 'The payment is not paid or not in EUR; the amount is not positive, exceeds the refundable rest or the overcapture ceiling.' },
  },
});

export const getRefund = defineRetrieve({
  path: '/v1/refunds/{id}',
  handler: 'get-refund',
  auth: { scope: 'refund:read' },
  params: refundId,
  tag: 'Refunds',
  summary: 'Retrieve a refund',
  description: 'The refund object.',
  success: { status: 200, description: 'The refund.', schema: refundResourceSchema },
});

export const listRefunds = defineList({
  path: '/v1/refunds',
  handler: 'list-refunds',
  auth: { scope: 'refund:read' },
  params: NoParams,
  query: ListQuery,
  tag: 'Refunds',
  summary: 'List refunds',
  description: 'Organization-wide, newest first.',
  success: { status: 200, description: 'A page of refunds.', schema: RefundListSchema },
});

export const testHelperRefundTransition = defineOperation({
  method: 'POST',
  path: '/v1/test_helpers/refunds/{id}/transitions',
  handler: 'test-helper-refund-transition',
  table: 'write',
  auth: { scope: 'refund:create', mode: 'test' },
  params: refundId,
  query: NoQuery,
  body: refundTransitionBody,
  tag: 'Test helpers',
  summary: 'Move a refund',
  description: '`pending` → `processing` → `refunded`; `pending` → `canceled`; `processing` → `failed`.',
  success: { status: 200, description: 'The refund.', schema: refundResourceSchema },
  errors: { 422: { description: 'A move the lifecycle forbids, or a balance that does not cover `processing`.' } },
});

export const testHelperBalanceAdjustment = defineOperation({
  method: 'POST',
  path: '/v1/test_helpers/balance_adjustments',
  handler: 'test-helper-balance-adjustment',
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

export const refundOperations = [createRefund, getRefund, listRefunds, testHelperRefundTransition, testHelperBalanceAdjustment];
