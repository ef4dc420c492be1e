import { dashboardServices } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { linkQueryOf } from '../../shared/dashboard/lists';
import { linkPage } from '../../shared/dashboard/pages';

const dashboard = dashboardServices();

/** GET /dashboard/payment-links/{id}: the link, its payments and its events, without opening its checkout. */
export const handler = dashboardPage(dashboard, async (request) => {
  const { principal, event } = request;
  return { status: 200, html: linkPage(request, await dashboard.paymentLink(principal, event.pathParameters?.id ?? '', linkQueryOf(event))) };
});
