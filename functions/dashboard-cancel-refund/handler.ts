import { dashboardFormPorts } from '../../shared/services/dashboard';
import { refundMovePorts } from '../../shared/services/refunds';
import { dashboardCancelRefund } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { refundPagePath } from '../../shared/dashboard/tables';
import { cancelRefund } from '../../shared/use-cases/refunds';

const ports = dashboardFormPorts();
const moves = refundMovePorts();

/**
 * POST /dashboard/refunds/{id}/cancel: `POST /v1/refunds/{id}/cancel` from the refund's page.
 * 303 back to the refund; a refund that is no longer pending shows the API's 422 there.
 */
export const handler = dashboardForm(ports, dashboardCancelRefund, {
  body: () => undefined,
  submit: async ({ principal, urls, path }) => refundPagePath(urls, (await cancelRefund(moves, principal, path.id, urls)).id),
  home: (path, _fields, urls) => ({ page: refundPagePath(urls, path.id), form: 'cancel-refund' }),
});
