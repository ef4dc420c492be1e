import { SettlementListSchema, SettlementRecordListSchema, SettlementRecordsQuery, SettlementSchema } from '../domain/settlements';
import { ListQuery } from '../pagination';
import { defineList, defineRetrieve, NoParams, pathParam } from './operation';

const settlementCode = /* @__PURE__ */ (() => pathParam('code', 'The settlement reference code (as on the bank statement) or its `stl_` id.', 'STL-2026-11-20'))();
const UNKNOWN_OR_TEST = { description: 'Unknown or foreign settlement, or a test key.' };

export const listSettlements = /* @__PURE__ */ defineList({
  path: '/v1/settlements',
  handler: 'list-settlements',
  auth: { scope: 'settlement:read', mode: 'live' },
  params: NoParams,
  query: ListQuery,
  tag: 'Settlements',
  summary: 'List settlements',
  description: 'Organization-wide, newest first by creation; cursors take a settlement code or id. Live keys only.',
  success: { status: 200, description: 'A page of settlements (without `clearings`).', schema: SettlementListSchema },
  errors: { 404: { description: 'A test key: settlements exist only in live mode.' } },
});

export const getSettlement = /* @__PURE__ */ defineRetrieve({
  path: '/v1/settlements/{code}',
  handler: 'get-settlement',
  auth: { scope: 'settlement:read', mode: 'live' },
  params: settlementCode,
  tag: 'Settlements',
  summary: 'Retrieve a settlement',
  description: 'By reference code or `stl_` id, with `clearings`. Live keys only.',
  success: { status: 200, description: 'The settlement.', schema: SettlementSchema },
  errors: { 404: UNKNOWN_OR_TEST },
});

export const listSettlementRecords = /* @__PURE__ */ defineList({
  path: '/v1/settlements/{code}/records',
  handler: 'list-settlement-records',
  auth: { scope: 'settlement:read', mode: 'live' },
  params: settlementCode,
  query: SettlementRecordsQuery,
  tag: 'Settlements',
  summary: "List a settlement's records",
  description: 'Payments, refunds, chargebacks, chargeback reversals and rollbacks, newest first by transaction time. Live keys only.',
  success: { status: 200, description: 'A page of records.', schema: SettlementRecordListSchema },
  errors: { 404: UNKNOWN_OR_TEST },
});

export const settlementOperations = [listSettlements, getSettlement, listSettlementRecords];
