import { dashboardPayments } from '../../shared/api/pages';
import { customerEmailPorts, dashboardSessionServices, paymentPorts } from '../../shared/services/dashboard';
import { PAYMENT_LIST, listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/payments: one page of the list, newest first, with the API's cursors and filters. */
export const handler = listHandler(dashboardPayments, dashboardSessionServices(), PAYMENT_LIST, { ...paymentPorts(), ...customerEmailPorts() });
