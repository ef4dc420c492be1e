import { dashboardPayment } from '../../shared/api/pages';
import { chargebackPorts, dashboardSessionServices, paymentPorts, refundPorts } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { listQueryOf } from '../../shared/dashboard/lists';
import { paymentPage } from '../../shared/dashboard/pages';
import { paymentView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = { ...paymentPorts(), ...refundPorts(), ...chargebackPorts() };

/** GET /dashboard/payments/{id}: the payment, the refund form (a refused one again), its refunds and its chargebacks. */
export const handler = dashboardPage(dashboardPayment, sessions, async (request) => {
  const { principal, event } = request;
  const view = await paymentView(reads, principal, event.pathParameters?.id ?? '', listQueryOf(event));
  return { status: 200, html: paymentPage(request, view, new Date(), request.formState('refund')) };
});
