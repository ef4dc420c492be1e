import { SettlementListSchema, SettlementRecordListSchema, SettlementRecordsQuery, SettlementSchema } from '../domain/settlements';
import { ListQuery } from '../pagination';
import { LIST_422, NoParams, NoQuery, defineOperation, pathParam } from './operation';

const settlementCode = pathParam('code', 'The settlement reference code (as on the bank statement) or its `stl_` id.', 'STL-2026-11-20');
const UNKNOWN_OR_TEST = { description: 'Unknown or foreign settlement, or a test key.' };

export const listSettlements = defineOperation({
  method: 'GET',
  path: '/v1/settlements',
  handler: 'list-settlements',
  table: 'read',
  auth: { scope: 'settlement:read', mode: 'live' },
  params: NoParams,
  query: ListQuery,
  tag: 'Settlements',
  summary: 'List settlements',
  description: 'Organization-wide, newest first by creation; cursors take a settlement code or id. Live keys only.',
  success: { status: 200, description: 'A page of settlements (without `clearings`).', schema: SettlementListSchema },
  errors: { 404: { description: 'A test key: settlements exist only in live mode.' }, 422: { description: LIST_422 } },
});

export const getSettlement = defineOperation({
  method: 'GET',
  path: '/v1/settlements/{code}',
  handler: 'get-settlement',
  table: 'read',
  auth: { scope: 'settlement:read', mode: 'live' },
  params: settlementCode,
  query: NoQuery,
  tag: 'Settlements',
  summary: 'Retrieve a settlement',
  description: 'By reference code or `stl_` id, with `clearings`. Live keys only.',
  success: { status: 200, description: 'The settlement.', schema: SettlementSchema },
  errors: { 404: UNKNOWN_OR_TEST },
});

export const listSettlementRecords = defineOperation({
  method: 'GET',
  path: '/v1/settlements/{code}/records',
  handler: 'list-settlement-records',
  table: 'read',
  auth: { scope: 'settlement:read', mode: 'live' },
  params: settlementCode,
  query: SettlementRecordsQuery,
  tag: 'Settlements',
  summary: "List a settlement's records",
  description: 'Payments, refunds, chargebacks, chargeback reversals and rollbacks, newest first by transaction time. Live keys only.',
  success: { status: 200, description: 'A page of records.', schema: SettlementRecordListSchema },
  errors: { 404: UNKNOWN_OR_TEST, 422: { description: LIST_422 } },
});

export const settlementOperations = [listSettlements, getSettlement, listSettlementRecords];
