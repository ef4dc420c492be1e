import { getBalance } from '../../shared/api/balance';
import { balanceOverview } from '../../shared/domain/balance';
import { apiHandler } from '../../shared/http/api';
import { ledgerReads } from '../../shared/services/balance';

const ledger = ledgerReads();

/** GET /v1/balance */
export const handler = apiHandler(getBalance, async ({ principal }) => ({ status: 200, body: balanceOverview(await ledger.balances(principal)) }));
