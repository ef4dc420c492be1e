import { ChargebackListSchema, ChargebackSchema, ChargebackTransitionBody, TestChargebackBody } from '../domain/chargebacks';
import { ListQuery } from '../pagination';
import { defineList, defineRetrieve, defineOperation, NoQuery, NoParams, pathParam } from './operation';
import { paymentId } from './payments';

const chargebackId = /* @__PURE__ */ (() => pathParam('id', 'The chargeback id (`cb_…`).', 'cb_01jd2x3y4z5a6b7c8d9e0f1g2h'))();

export const getChargeback = /* @__PURE__ */ defineRetrieve({
  path: '/v1/chargebacks/{id}',
  handler: 'get-chargeback',
  auth: { scope: 'chargeback:read' },
  params: chargebackId,
  tag: 'Chargebacks',
  summary: 'Retrieve a chargeback',
  description: 'The full chargeback object.',
  success: { status: 200, description: 'The chargeback.', schema: ChargebackSchema },
});

export const listChargebacks = /* @__PURE__ */ defineList({
  path: '/v1/chargebacks',
  handler: 'list-chargebacks',
  auth: { scope: 'chargeback:read' },
  params: NoParams,
  query: ListQuery,
  tag: 'Chargebacks',
  summary: 'List chargebacks',
  description: "Newest first, list items. An acceptor-bound key sees its acceptor's chargebacks; an organization-scoped key all of its organization.",
  success: { status: 200, description: 'A page of chargebacks.', schema: ChargebackListSchema },
});

export const listPaymentChargebacks = /* @__PURE__ */ defineList({
  path: '/v1/payments/{id}/chargebacks',
  handler: 'list-payment-chargebacks',
  auth: { scope: 'chargeback:read' },
  params: paymentId,
  query: ListQuery,
  tag: 'Chargebacks',
  summary: "List a payment's chargebacks",
  description: 'The chargebacks of one payment as list items, newest first (organization-wide).',
  success: { status: 200, description: "A page of the payment's chargebacks.", schema: ChargebackListSchema },
});

export const testHelperCreateChargeback = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/test_helpers/payments/{id}/chargebacks',
  handler: 'test-helper-create-chargeback',
  table: 'write',
  auth: { scope: 'chargeback:read', mode: 'test' },
  params: paymentId,
  query: NoQuery,
  body: TestChargebackBody,
  tag: 'Test helpers',
  summary: 'Charge back a payment',
  description: "A bank reversal of a paid test payment: an `open` chargeback (default amount: the payment's; default `deadline_at`: 7 days).",
  success: { status: 201, description: 'The new chargeback.', schema: ChargebackSchema },
  errors: { 422: { description: 'The payment is not paid, or the amount exceeds it or is in another currency.' } },
});

export const testHelperTransitionChargeback = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/test_helpers/chargebacks/{id}/transitions',
  handler: 'test-helper-transition-chargeback',
  table: 'write',
  auth: { scope: 'chargeback:read', mode: 'test' },
  params: chargebackId,
  query: NoQuery,
  body: ChargebackTransitionBody,
  tag: 'Test helpers',
  summary: 'Move a chargeback',
  description: 'Moves a chargeback along the state table (`open` → `accepted`/`disputed` → `won`/`lost`).',
  success: { status: 200, description: 'The chargeback.', schema: ChargebackSchema },
  errors: { 422: { description: 'A move the state table forbids (attribute `status`).' } },
});

export const chargebackOperations = [getChargeback, listChargebacks, listPaymentChargebacks, testHelperCreateChargeback, testHelperTransitionChargeback];
