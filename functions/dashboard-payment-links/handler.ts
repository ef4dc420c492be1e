import { dashboardPaymentLinks } from '../../shared/api/pages';
import { dashboardSessionServices, linkPorts } from '../../shared/services/dashboard';
import { PAYMENT_LINK_LIST, listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/payment-links: one page of the list, newest first, with the API's cursors. */
export const handler = listHandler(dashboardPaymentLinks, dashboardSessionServices(), PAYMENT_LINK_LIST, linkPorts());
