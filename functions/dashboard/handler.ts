import { dashboardServices } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { overviewPage } from '../../shared/dashboard/pages';

const dashboard = dashboardServices();

/** GET /dashboard: the sign-in form, or once signed in the paid-volume chart and the overview of every section. */
export const handler = dashboardPage(
  dashboard,
  async (request) => {
    const [overview, volume] = await Promise.all([dashboard.overview(request.principal), dashboard.paidVolume(request.principal)]);
    return { status: 200, html: overviewPage(request, overview, volume, new Date()) };
  },
  { signedOutStatus: 200 },
);
