import { dashboardServices } from '../../shared/services/dashboard';
import { dashboardCreatePaymentLink } from '../../shared/api/pages';
import { requireScope } from '../../shared/domain/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { newLinkPage } from '../../shared/dashboard/pages';

const dashboard = dashboardServices();

/** GET /dashboard/payment-links/new: the create form, for a key that may create links (403 otherwise). */
export const handler = dashboardPage(dashboard, async (request) => {
  requireScope(request.principal, dashboardCreatePaymentLink.scope);
  return { status: 200, html: newLinkPage(request, { acceptors: await dashboard.acceptors(request.principal) }) };
});
