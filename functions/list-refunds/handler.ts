import { refundReads } from '../../shared/services/refund-reads';
import { listRefunds } from '../../shared/api/refunds';
import { refundPage } from '../../shared/domain/refunds';
import { apiHandler } from '../../shared/http/api';
import { isId } from '../../shared/ids';
import { pageRequest } from '../../shared/pagination';

const { refunds } = refundReads();

/** GET /v1/refunds: the standard list, newest first, `{has_more, data}`, with its filters. */
export const handler = apiHandler(listRefunds, async ({ principal, query, urls }) => {
  const page = await refunds.list(principal, pageRequest(query, (value) => isId('refund', value)), query.status);
  return { status: 200, body: refundPage(page, urls) };
});
