import { dashboardEvent } from '../../shared/api/pages';
import { dashboardSessionServices, eventPorts } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { eventPage } from '../../shared/dashboard/webhooks';
import { eventView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = eventPorts();

/** GET /dashboard/events/{id}: the event's payload as webhooks deliver it, its delivery attempts, and its resend. */
export const handler = dashboardPage(dashboardEvent, sessions, async (request) => {
  const id = request.event.pathParameters?.id ?? '';
  const view = await eventView(reads, request.principal, id);
  return { status: 200, html: eventPage(request, view, request.formState('resend'), request.notice(view.envelope.id)) };
});
