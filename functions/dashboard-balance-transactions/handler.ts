import { listBalanceTransactions } from '../../shared/api/balance';
import { dashboardBalanceTransactions } from '../../shared/api/pages';
import { dashboardSessionServices, ledgerPorts } from '../../shared/services/dashboard';
import { filteredQueryOf, filterValues } from '../../shared/dashboard/filters';
import { dashboardPage } from '../../shared/dashboard/http';
import { balancePage } from '../../shared/dashboard/pages';
import { balanceView, type BalanceMovementParams } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const ledger = ledgerPorts();

/**
 * GET /dashboard/balance-transactions: the balance of every currency, then its movements, one
 * page at a time, newest first, with the filters of `GET /v1/balance_transactions`.
 */
export const handler = dashboardPage(dashboardBalanceTransactions, sessions, async (request) => {
  const view = await balanceView(ledger, request.principal, filteredQueryOf<BalanceMovementParams>(request.event, listBalanceTransactions));
  return { status: 200, html: balancePage(request, view, { operation: listBalanceTransactions, values: filterValues(request.event, listBalanceTransactions) }) };
});
