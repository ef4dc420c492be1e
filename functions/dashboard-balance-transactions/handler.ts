import { listBalanceTransactions } from '../../shared/api/balance';
import { dashboardBalanceTransactions } from '../../shared/api/pages';
import { dashboardSessionServices, ledgerPorts } from '../../shared/services/dashboard';
import { filteredQueryOf, filterValues } from '../../shared/dashboard/filters';
import { dashboardPage } from '../../shared/dashboard/http';
import { balancePage } from '../../shared/dashboard/pages';
import { EXPORT_FORM, exportForm } from '../../shared/dashboard/reports';
import { balanceView, type BalanceMovementParams } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const ledger = ledgerPorts();

/**
 * GET /dashboard/balance-transactions: the balance of every currency, then its movements, one
 * page at a time, newest first, with the filters of `GET /v1/balance_transactions` and the Export button.
 */
export const handler = dashboardPage(dashboardBalanceTransactions, sessions, async (request) => {
  const view = await balanceView(ledger, request.principal, filteredQueryOf<BalanceMovementParams>(request.event, listBalanceTransactions));
  const values = filterValues(request.event, listBalanceTransactions);
  const exporting = exportForm(request, 'balance_transactions', values, new Date(), request.formState(EXPORT_FORM));
  return { status: 200, html: balancePage(request, view, { operation: listBalanceTransactions, values }, exporting) };
});
