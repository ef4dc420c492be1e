import { dashboardServices } from '../../shared/services/dashboard';
import { listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/payment-links: one page of the list, newest first, with the API's cursors. */
export const handler = listHandler(dashboardServices(), 'paymentLinks');
