import { chargebackReads } from '../../shared/services/chargeback-reads';
import { listChargebacks } from '../../shared/api/chargebacks';
import { chargebackPage } from '../../shared/domain/chargebacks';
import { apiHandler } from '../../shared/http/api';
import { isId } from '../../shared/ids';
import { pageRequest } from '../../shared/pagination';

const { chargebacks } = chargebackReads();

/** GET /v1/chargebacks: list items, newest first; acceptor-bound keys see their acceptor's only. */
export const handler = apiHandler(
  listChargebacks,
  async ({ principal, query, urls }) => {
    const page = await chargebacks.list(principal, pageRequest(query, (value) => isId('chargeback', value)), query.status);
    return { status: 200, body: chargebackPage(page, urls) };
  },
);
