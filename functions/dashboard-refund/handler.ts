import { dashboardRefund } from '../../shared/api/pages';
import { dashboardSessionServices, refundPorts } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { refundPage } from '../../shared/dashboard/pages';
import { refundView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = refundPorts();

/** GET /dashboard/refunds/{id}: one refund (the refund object's `links.dashboard`), with its cancel refused if it was. */
export const handler = dashboardPage(dashboardRefund, sessions, async (request) => {
  const refund = await refundView(reads, request.principal, request.event.pathParameters?.id ?? '');
  return { status: 200, html: refundPage(request, refund, request.formState('cancel-refund')) };
});
