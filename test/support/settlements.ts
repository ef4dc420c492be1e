import { randomUUID } from 'node:crypto';
import { createSettlementRepository } from '../../shared/db/settlement-repository';
import { importSettlements } from '../../shared/domain/settlement-import';
import { newId } from '../../shared/ids';
import type { TestStack } from './stack';

/** Feed documents as the acquirer sends them: settlements as the API returns them, plus records. */
export const uniqueCode = (prefix = 'STL') => `${prefix}-${randomUUID().slice(0, 8)}`;

export function clearingLine(overrides: Record<string, unknown> = {}) {
  return {
    clearing_date: '2026-11-18',
    value_date: '2026-11-19',
    settlement_date: '2026-11-20',
    state: 'cleared',
    payment_method: 'card',
    brand: 'visa',
    card_type: 'consumer',
    funding_type: 'debit',
    region: 'eea',
    channel: 'ecommerce',
    direction: 'credit',
    collecting: true,
    amount: { value: '100.00', currency: 'EUR' },
    transaction_count: 3,
    unique_payers: 2,
    ...overrides,
  };
}

export function clearingGroup(lines = [clearingLine()], createdAt = '2026-11-19T08:00:00.123456+00:00') {
  return { created_at: createdAt, clearing_lines: lines };
}

export function paymentRecord(orgId: string, acceptorId: string, overrides: Record<string, unknown> = {}) {
  return {
    object: 'payment',
    id: newId('payment'),
    direction: 'credit',
    org_id: orgId,
    acceptor_id: acceptorId,
    status: 'paid',
    created_at: '2026-11-18T10:00:00.000Z',
    paid_at: '2026-11-18T10:01:00.000Z',
    description: 'Order 1',
    payment_method: 'card',
    amount: { value: '10.00', currency: 'eur' },
    metadata: { order: '1' },
    ...overrides,
  };
}

export const refundRecord = (overrides: Record<string, unknown> = {}) => ({
  object: 'refund',
  id: newId('refund'),
  direction: 'debit',
  payment_id: newId('payment'),
  status: 'refunded',
  amount: { value: '2.50', currency: 'eur' },
  created_at: '2026-11-18T11:00:00.000Z',
  ...overrides,
});

export const chargebackRecord = (overrides: Record<string, unknown> = {}) => ({
  object: 'chargeback',
  id: newId('chargeback'),
  direction: 'debit',
  payment_id: newId('payment'),
  status: 'lost',
  reason: { code: '4837', description: 'No cardholder authorization' },
  amount: { value: '7.00', currency: 'eur' },
  deadline_at: '2026-11-25T12:00:00.000Z',
  created_at: '2026-11-18T12:00:00.000Z',
  ...overrides,
});

export const chargebackReversalRecord = (overrides: Record<string, unknown> = {}) => ({
  object: 'chargeback_reversal',
  direction: 'credit',
  chargeback_id: newId('chargeback'),
  payment_id: newId('payment'),
  amount: { value: '7.00', currency: 'eur' },
  payment_method: 'card',
  transaction_date: '2026-11-17',
  ...overrides,
});

export const rollbackRecord = (overrides: Record<string, unknown> = {}) => ({
  object: 'rollback',
  direction: 'debit',
  payment_id: newId('payment'),
  amount: { value: '3.00', currency: 'eur' },
  payment_method: 'ideal',
  transaction_date: '2026-11-16',
  ...overrides,
});

export function settlementInput(orgId: string, overrides: Record<string, unknown> = {}) {
  return {
    org_id: orgId,
    code: uniqueCode(),
    settlement_date: '2026-11-20',
    confirmation_date: '2026-11-21',
    status: 'settled',
    amount: { value: '1234.56', currency: 'EUR' },
    clearing_account: { method: 'sepa', iban: 'NL91ABNA0417164300', bic: 'ABNANL2A', owner: 'Acme B.V.' },
    clearings: [clearingGroup()],
    created_at: '2026-11-20T06:00:00.654321+00:00',
    updated_at: '2026-11-21T06:00:00.000001+00:00',
    records: [] as unknown[],
    ...overrides,
  };
}

/** Imports through the same use case as `ops settlement import` and the feed function. */
export async function importDocument(stack: TestStack, settlements: unknown[]) {
  return importSettlements(createSettlementRepository(stack.db, stack.tableName).store, { settlements }, new Date());
}
