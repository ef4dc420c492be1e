import { dashboardServices } from '../../shared/services/dashboard';
import { listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/payments: one page of the list, newest first, with the API's cursors. */
export const handler = listHandler(dashboardServices(), 'payments');
