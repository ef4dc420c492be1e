import { listBalanceTransactions } from '../../shared/api/balance';
import { balanceTransactionPage } from '../../shared/domain/balance';
import { isId } from '../../shared/ids';
import { apiHandler } from '../../shared/http/api';
import { pageRequest } from '../../shared/pagination';
import { ledgerReads } from '../../shared/services/balance';

const ledger = ledgerReads();

/** GET /v1/balance_transactions */
export const handler = apiHandler(listBalanceTransactions, async ({ principal, query }) => {
  const page = pageRequest(query, (value) => isId('balanceTransaction', value));
  return { status: 200, body: balanceTransactionPage(await ledger.list(principal, page, { type: query.type, source: query.source })) };
});
