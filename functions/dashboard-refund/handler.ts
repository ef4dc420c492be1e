import { dashboardServices } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { refundPage } from '../../shared/dashboard/pages';

const dashboard = dashboardServices();

/** GET /dashboard/refunds/{id}: one refund (the refund object's `links.dashboard`). */
export const handler = dashboardPage(dashboard, async (request) => {
  const refund = await dashboard.refund(request.principal, request.event.pathParameters?.id ?? '');
  return { status: 200, html: refundPage(request, refund) };
});
