import { dashboardBalanceTransactions } from '../../shared/api/pages';
import { dashboardSessionServices, ledgerPorts } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { listQueryOf } from '../../shared/dashboard/lists';
import { balancePage } from '../../shared/dashboard/pages';
import { balanceView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const ledger = ledgerPorts();

/** GET /dashboard/balance-transactions: the balance of every currency, then its movements, one page at a time, newest first. */
export const handler = dashboardPage(dashboardBalanceTransactions, sessions, async (request) => ({
  status: 200,
  html: balancePage(request, await balanceView(ledger, request.principal, listQueryOf(request.event))),
}));
