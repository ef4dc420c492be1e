import { dashboardRefunds } from '../../shared/api/pages';
import { dashboardSessionServices, refundPorts } from '../../shared/services/dashboard';
import { REFUND_LIST, listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/refunds: one page of the list, newest first, with the API's cursors. */
export const handler = listHandler(dashboardRefunds, dashboardSessionServices(), REFUND_LIST, refundPorts());
