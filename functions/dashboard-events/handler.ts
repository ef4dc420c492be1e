import { dashboardEvents } from '../../shared/api/pages';
import { dashboardSessionServices, eventPorts } from '../../shared/services/dashboard';
import { EVENT_LIST, listHandler } from '../../shared/dashboard/lists';

/** GET /dashboard/events: one page of the list, newest first, with the API's cursors. */
export const handler = listHandler(dashboardEvents, dashboardSessionServices(), EVENT_LIST, eventPorts());
