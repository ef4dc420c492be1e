import { paymentRepository } from '../../shared/services/payments';
import { customerEmailIndex } from '../../shared/services/customer-emails';
import { listPayments } from '../../shared/api/payments';
import { paymentPage } from '../../shared/domain/payments';
import { apiHandler } from '../../shared/http/api';
import { listPayments as pageOfPayments } from '../../shared/use-cases/payments';

const deps = { payments: paymentRepository(), customerEmails: customerEmailIndex() };

/** GET /v1/payments */
export const handler = apiHandler(listPayments, async ({ principal, query, urls }) => ({
  status: 200,
  body: paymentPage(await pageOfPayments(deps, principal, query), urls),
}));
