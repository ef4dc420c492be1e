import { dashboardFormPorts } from '../../shared/services/dashboard';
import { acceptPorts } from '../../shared/services/chargeback-answers';
import { dashboardAcceptChargeback } from '../../shared/api/pages';
import { dashboardForm } from '../../shared/dashboard/http';
import { chargebackPagePath } from '../../shared/dashboard/tables';
import { acceptChargeback } from '../../shared/use-cases/chargeback-answers';

const ports = dashboardFormPorts();
const deps = acceptPorts();

/**
 * POST /dashboard/chargebacks/{id}/accept: `POST /v1/chargebacks/{id}/accept` from the
 * chargeback's page, once confirmed. 303 back to the chargeback, with the 422 there if it can no
 * longer be answered.
 */
export const handler = dashboardForm(ports, dashboardAcceptChargeback, {
  body: () => undefined,
  submit: async ({ principal, urls, path }) => chargebackPagePath(urls, (await acceptChargeback(deps, principal, path.id, urls)).id),
  home: (path, _fields, urls) => ({ page: chargebackPagePath(urls, path.id), form: 'accept-chargeback' }),
  confirm: () => 'Tick the box to confirm that you accept the chargeback',
});
