import { LIMITS } from '../limits';
import * as z from '../zod';
import {
  DENIAL_REASONS,
  PaymentLinkListSchema,
  PaymentLinkSchema,
  createPaymentLinkBody,
  listLinkPaymentsQuery,
  listPaymentLinksQuery,
  updatePaymentLinkBody,
} from '../domain/payment-links';
import { PaymentLinkPaymentListSchema, PaymentSchema, testCheckoutBody } from '../domain/payments';
import { ErrorEnvelopeSchema } from '../http/error-envelope';
import { defineList, defineRetrieve, defineOperation, NoQuery, NoParams, pathParam } from './operation';

/** The 409 of the test helper checkout: the error envelope with the denial `reason` (output). */
export const CheckoutDeniedSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.extend(ErrorEnvelopeSchema, {
      status: z.literal(409),
      reason: z.withMeta(z.enum(DENIAL_REASONS), { description: 'Status first: `expired`, then `inactive`, then `limit_reached`.' }),
    }),
    { id: 'CheckoutDeniedError', description: 'The link refuses checkout; the error envelope plus `reason`.' },
  ))();

const linkId = /* @__PURE__ */ (() => pathParam('id', 'The payment link id (`pl_…`).', 'pl_01jd2x3y4z5a6b7c8d9e0f1g2h'))();

export const createPaymentLink = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/payment_links',
  handler: 'create-payment-link',
  audit: { action: 'payment_link.created', target: 'created' },
  table: 'write',
  auth: { scope: 'payment_link:create' },
  params: NoParams,
  query: NoQuery,
  body: createPaymentLinkBody,
  tag: 'Payment links',
  summary: 'Create a payment link',
  description:
    'Creates an `active` link. Organization-scoped keys must name `acceptor_id`; acceptor-bound keys default to their acceptor. ' +
    'Not idempotent without an `Idempotency-Key`: a repeated POST creates a second link. Emits `transactions.payment_link.created`.',
  success: { status: 201, description: 'The new payment link.', schema: PaymentLinkSchema },
  errors: {
    400: { description: 'Malformed JSON, a wrong type, an unknown field (e.g. `webhook_url`), or `amount.value` off its pattern.' },
    422: {
      description:
        '`amount.value` missing or not positive; `acceptor_id` missing for an organization-scoped key or of another organization; `payments_limit` below 1.',
    },
  },
});

export const listPaymentLinks = /* @__PURE__ */ defineList({
  path: '/v1/payment_links',
  handler: 'list-payment-links',
  auth: { scope: 'payment_link:read' },
  params: NoParams,
  query: listPaymentLinksQuery,
  tag: 'Payment links',
  summary: 'List payment links',
  description: 'Organization-wide, newest first. Forward cursor only (`ending_before` is not supported).',
  success: { status: 200, description: 'A page of payment links.', schema: PaymentLinkListSchema },
});

export const getPaymentLink = /* @__PURE__ */ defineRetrieve({
  path: '/v1/payment_links/{id}',
  handler: 'get-payment-link',
  auth: { scope: 'payment_link:read' },
  params: linkId,
  tag: 'Payment links',
  summary: 'Retrieve a payment link',
  description: 'Unknown, malformed and other-organization ids get the same 404.',
  success: { status: 200, description: 'The payment link.', schema: PaymentLinkSchema },
});

export const updatePaymentLink = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/payment_links/{id}',
  handler: 'update-payment-link',
  audit: { action: 'payment_link.updated', target: 'path' },
  table: 'write',
  auth: { scope: 'payment_link:update' },
  params: linkId,
  query: NoQuery,
  body: updatePaymentLinkBody,
  tag: 'Payment links',
  summary: 'Update a payment link',
  description:
    'Partial update over POST: omitted fields are kept. `amount`, `acceptor_id`, `redirect_url` and the `collect_*` fields are immutable ' +
    '(sending them is a 400). Emits `transactions.payment_link.properties.changed`.',
  success: { status: 200, description: 'The updated payment link.', schema: PaymentLinkSchema },
  errors: {
    400: { description: 'Malformed JSON, a wrong type, an unknown or immutable field, or `status` outside `active`, `inactive`.' },
    422: {
      description: 'Empty body; status change of an expired link (`Status cannot be changed once expired`); `payments_limit` below `paid_count`.',
    },
  },
});

export const listPaymentLinkPayments = /* @__PURE__ */ defineList({
  path: '/v1/payment_links/{id}/payments',
  handler: 'list-payment-link-payments',
  auth: { scope: 'payment_link:read' },
  params: linkId,
  query: listLinkPaymentsQuery,
  tag: 'Payment links',
  summary: "List a payment link's payments",
  description: 'Newest first, the minimal payment shape. Needs only `payment_link:read`. Forward cursor only.',
  success: { status: 200, description: "A page of the link's payments.", schema: PaymentLinkPaymentListSchema },
});

export const testHelperCheckout = /* @__PURE__ */ (() =>
  defineOperation({
    method: 'POST',
    path: '/v1/test_helpers/payment_links/{id}/checkout',
    handler: 'test-helper-checkout',
    // Recorded with the payment it opens or reuses, not with a denial's event (a 409 records nothing).
    audit: { action: 'payment_link.checked_out', target: 'path', carriedBy: 'payment' },
    table: 'write',
    customerEmails: true,
    auth: { scope: 'payment_link:update', mode: 'test' },
    params: linkId,
    query: NoQuery,
    body: testCheckoutBody,
    tag: 'Test helpers',
    summary: 'Check out a payment link',
    description:
      "Runs the checkout page's code without a browser: opens the checkout and completes the payment with `outcome` (default `paid`). " +
      'Like the page, it needs the fields the link collects (`email`, `phone`, `address`) to pay, and holds each to the page\'s rule: ' +
      `an email HTML's \`input type=email\` accepts, of at most ${LIMITS.customer.emailLength} characters; a phone number of at most ${LIMITS.customer.phoneLength}; ` +
      `an address of at most ${LIMITS.customer.addressLength} (400 otherwise).`,
    success: { status: 201, description: 'The payment.', schema: PaymentSchema },
    errors: {
      422: { description: '`outcome` `paid` without a field the link collects (attribute: the first missing field).' },
      409: {
        description: 'The link refuses checkout (`reason`: `expired`, `inactive` or `limit_reached`), or an Idempotency-Key is in flight.',
        schema: z.union([CheckoutDeniedSchema, ErrorEnvelopeSchema]),
      },
    },
  }))();

export const paymentLinkOperations = [
  createPaymentLink,
  listPaymentLinks,
  getPaymentLink,
  updatePaymentLink,
  listPaymentLinkPayments,
  testHelperCheckout,
];
