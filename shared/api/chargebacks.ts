import { ChargebackListSchema, ChargebackSchema, ChargebackTransitionBody, DisputeBody, DocumentBody, TestChargebackBody , listChargebacksQuery } from '../domain/chargebacks';
import { DisputeDocumentSchema } from '../domain/dispute-documents';
import { LIMITS } from '../limits';
import { EVIDENCE_FONT_FILES } from '../pdf/font';
import { ListQuery } from '../pagination';
import { defineList, defineRetrieve, defineOperation, EVIDENCE_PDF_MEMORY_MB, NoQuery, NoParams, pathParam } from './operation';
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
  query: listChargebacksQuery,
  tag: 'Chargebacks',
  summary: 'List chargebacks',
  description:
    "Newest first, list items, with optional `status` and creation range (`created[gte]`, `created[lt]`) filters. An acceptor-bound key sees its acceptor's chargebacks; " +
    'an organization-scoped key all of its organization.',
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

const ANSWERABLE = 'The chargeback is not `open`, or its `deadline_at` has passed (attribute `status`).';
const LIVE = 'In live mode the acquirer takes the answer first; the chargeback moves only once it did (acquirer unreachable: 503 with `Retry-After`, nothing changed).';
const LIVE_REFUSALS = 'In live mode also: the acquirer refused the answer, or the chargeback came from another acquirer\'s feed (answer it there); nothing changed.';

export const acceptChargeback = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/chargebacks/{id}/accept',
  handler: 'accept-chargeback',
  audit: { action: 'chargeback.accepted', target: 'path' },
  table: 'write',
  acquirer: true,
  auth: { scope: 'chargeback:update' },
  params: chargebackId,
  query: NoQuery,
  tag: 'Chargebacks',
  summary: 'Accept a chargeback',
  description: `An \`open\` chargeback, before its \`deadline_at\`, becomes \`accepted\` (its amount goes to the cardholder). No body. ${LIVE}`,
  success: { status: 200, description: 'The accepted chargeback.', schema: ChargebackSchema },
  errors: { 422: { description: `${ANSWERABLE} ${LIVE_REFUSALS}` } },
});

export const disputeChargeback = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/chargebacks/{id}/dispute',
  handler: 'dispute-chargeback',
  audit: { action: 'chargeback.disputed', target: 'path' },
  table: 'write',
  documents: 'read',
  acquirer: true,
  // The font of the PDF of the texts that a live dispute sends the acquirer.
  files: EVIDENCE_FONT_FILES,
  memoryMb: EVIDENCE_PDF_MEMORY_MB,
  auth: { scope: 'chargeback:update' },
  params: chargebackId,
  query: NoQuery,
  body: DisputeBody,
  tag: 'Chargebacks',
  summary: 'Dispute a chargeback',
  description:
    `An \`open\` chargeback, before its \`deadline_at\`, becomes \`disputed\` with \`dispute: {submitted_at, evidence}\`. Evidence: at least one field, each text at most ${LIMITS.evidence.textLength} characters, ` +
    `at most ${LIMITS.evidence.documents} documents of this chargeback, each uploaded with its declared type and size. ${LIVE}`,
  success: { status: 200, description: 'The disputed chargeback.', schema: ChargebackSchema },
  errors: {
    422: {
      description: `${ANSWERABLE} Or the offending field: \`evidence\` (no field, or the texts together above ${LIMITS.evidence.textsBytes} bytes in UTF-8), a text too long (above ${LIMITS.evidence.textLength} characters, counted in Unicode code points), \`evidence.documents\` (more than ${LIMITS.evidence.documents}, repeated, not this chargeback's, not uploaded, or uploaded with another size or type; in live mode: no defense reason of the acquirer fits). ${LIVE_REFUSALS}`,
    },
  },
});

export const createDisputeDocument = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/chargebacks/{id}/documents',
  handler: 'create-dispute-document',
  audit: { action: 'dispute_document.created', target: 'created' },
  table: 'write',
  documents: 'upload',
  auth: { scope: 'chargeback:update' },
  params: chargebackId,
  query: NoQuery,
  body: DocumentBody,
  tag: 'Chargebacks',
  summary: 'Upload an evidence document',
  description:
    `Declares a file (PDF, PNG or JPEG, at most ${LIMITS.evidence.documentBytes} bytes) and answers a presigned upload: send the file with \`upload.method\` to \`upload.url\` with \`upload.headers\` ` +
    `within ${LIMITS.evidence.uploadSeconds / 60} minutes. The store takes only that type and size; a dispute names the document by its \`id\` once it is uploaded.`,
  success: { status: 201, description: 'The document and its upload.', schema: DisputeDocumentSchema },
  errors: { 422: { description: `${ANSWERABLE} Or \`filename\`, \`content_type\` (not one of the three) or \`size\` (0, or above ${LIMITS.evidence.documentBytes}).` } },
});

export const testHelperCreateChargeback = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/test_helpers/payments/{id}/chargebacks',
  handler: 'test-helper-create-chargeback',
  audit: { action: 'chargeback.created', target: 'created' },
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
  audit: { action: 'chargeback.transitioned', target: 'path' },
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

export const chargebackOperations = [
  getChargeback,
  listChargebacks,
  listPaymentChargebacks,
  acceptChargeback,
  disputeChargeback,
  createDisputeDocument,
  testHelperCreateChargeback,
  testHelperTransitionChargeback,
];
