import { BalanceOverviewSchema, BalanceTransactionListSchema, listBalanceTransactionsQuery } from '../domain/balance';
import { defineList, defineRetrieve, NoParams } from './operation';

export const getBalance = /* @__PURE__ */ defineRetrieve({
  path: '/v1/balance',
  handler: 'get-balance',
  auth: { scope: 'balance:read' },
  params: NoParams,
  tag: 'Balance',
  summary: 'Retrieve the balance',
  description:
    "The organization's balances in the key's mode, one per currency: what is available (the sum of the currency's balance transactions once no " +
    'write is in flight) and the refunds waiting on hold for cover.',
  success: { status: 200, description: 'The balance.', schema: BalanceOverviewSchema },
});

export const listBalanceTransactions = /* @__PURE__ */ defineList({
  path: '/v1/balance_transactions',
  handler: 'list-balance-transactions',
  auth: { scope: 'balance:read' },
  params: NoParams,
  query: listBalanceTransactionsQuery,
  tag: 'Balance',
  summary: 'List balance transactions',
  description:
    'Every movement of the balances (payments, refunds and their reversals, chargebacks and their reversals, adjustments), newest first, ' +
    'with optional `type`, `source` and creation range (`created[gte]`, `created[lt]`) filters.',
  success: { status: 200, description: 'A page of balance transactions.', schema: BalanceTransactionListSchema },
});

export const balanceOperations = [getBalance, listBalanceTransactions];
