import { dashboardChargebacks } from '../../shared/api/pages';
import { dashboardSessionServices, chargebackPorts } from '../../shared/services/dashboard';
import { CHARGEBACK_LIST, listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/chargebacks: one page of the list, newest first, with the API's cursors. */
export const handler = listHandler(dashboardChargebacks, dashboardSessionServices(), CHARGEBACK_LIST, chargebackPorts());
