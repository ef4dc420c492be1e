import { dashboardPayments } from '../../shared/api/pages';
import { dashboardSessionServices, paymentPorts } from '../../shared/services/dashboard';
import { PAYMENT_LIST, listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/payments: one page of the list, newest first, with the API's cursors. */
export const handler = listHandler(dashboardPayments, dashboardSessionServices(), PAYMENT_LIST, paymentPorts());
