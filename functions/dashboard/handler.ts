import { dashboardServices } from '../../shared/services';
import { dashboardPage } from '../../shared/dashboard/http';
import { overviewPage } from '../../shared/dashboard/pages';

const dashboard = dashboardServices();

/** GET /dashboard: the sign-in form, or once signed in the overview of every section. */
export const handler = dashboardPage(
  dashboard,
  async ({ principal, urls }) => ({ status: 200, html: overviewPage(await dashboard.overview(principal), urls, new Date()) }),
  { signedOutStatus: 200 },
);
