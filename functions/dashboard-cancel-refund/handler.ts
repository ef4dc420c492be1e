import { dashboardSessionServices, refundPorts } from '../../shared/services/dashboard';
import { refundMovePorts } from '../../shared/services/refunds';
import { dashboardCancelRefund } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { refundPage } from '../../shared/dashboard/pages';
import { refundView } from '../../shared/use-cases/dashboard';
import { cancelRefund } from '../../shared/use-cases/refunds';
import { refundPagePath } from '../../shared/dashboard/tables';

const sessions = dashboardSessionServices();
const moves = refundMovePorts();
const reads = refundPorts();

/**
 * POST /dashboard/refunds/{id}/cancel: `POST /v1/refunds/{id}/cancel` from the refund's page.
 * 303 back to the refund; a refund that is no longer pending shows the API's 422 on the page.
 */
export const handler = dashboardForm(sessions, dashboardCancelRefund, {
  body: () => undefined,
  submit: async ({ principal, urls, path }) => refundPagePath(urls, (await cancelRefund(moves, principal, path.id, urls)).id),
  invalid: async (request, problem) => refundPage(request, await refundView(reads, request.principal, request.path.id), { values: {}, problem }),
});
