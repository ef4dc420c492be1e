import { dashboardSessionServices, paymentPorts, refundPorts } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { listQueryOf } from '../../shared/dashboard/lists';
import { paymentPage } from '../../shared/dashboard/pages';
import { paymentView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = { ...paymentPorts(), ...refundPorts() };

/** GET /dashboard/payments/{id}: the payment, the refund form (a refused one again) and its refunds. */
export const handler = dashboardPage(sessions, async (request) => {
  const { principal, event } = request;
  return { status: 200, html: paymentPage(request, await paymentView(reads, principal, event.pathParameters?.id ?? '', listQueryOf(event)), request.formState('refund')) };
});
