import { dashboardBalanceTransactions } from '../../shared/api/pages';
import { dashboardSessionServices, ledgerPorts } from '../../shared/services/dashboard';
import { BALANCE_TRANSACTION_LIST, listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/balance-transactions: the balances' movements, one page at a time, newest first. */
export const handler = listHandler(dashboardBalanceTransactions, dashboardSessionServices(), BALANCE_TRANSACTION_LIST, ledgerPorts());
