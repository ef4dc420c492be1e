import { dashboardServices } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { listQueryOf } from '../../shared/dashboard/lists';
import { paymentPage } from '../../shared/dashboard/pages';

const dashboard = dashboardServices();

/** GET /dashboard/payments/{id}: the payment, the refund form and its refunds. */
export const handler = dashboardPage(dashboard, async (request) => {
  const { principal, event } = request;
  return { status: 200, html: paymentPage(request, await dashboard.payment(principal, event.pathParameters?.id ?? '', listQueryOf(event))) };
});
