import { dashboardFormPorts } from '../../shared/services/dashboard';
import { disputePorts } from '../../shared/services/chargeback-answers';
import { dashboardDisputeChargeback } from '../../shared/api/pages';
import { disputeBody } from '../../shared/dashboard/chargebacks';
import { dashboardForm } from '../../shared/dashboard/http';
import { chargebackPagePath } from '../../shared/dashboard/tables';
import { disputeChargeback } from '../../shared/use-cases/chargeback-answers';

const ports = dashboardFormPorts();
const deps = disputePorts();

/**
 * POST /dashboard/chargebacks/{id}/dispute: `POST /v1/chargebacks/{id}/dispute` from the
 * chargeback's page, once confirmed, with the evidence texts and the documents its script
 * uploaded. 303 back to the chargeback, with the refusal beside its field if refused.
 */
export const handler = dashboardForm(ports, dashboardDisputeChargeback, {
  body: disputeBody,
  submit: async ({ principal, urls, path, body }) => chargebackPagePath(urls, (await disputeChargeback(deps, principal, path.id, body.evidence, urls)).id),
  home: (path, _fields, urls) => ({ page: chargebackPagePath(urls, path.id), form: 'dispute-chargeback' }),
  confirm: () => 'Tick the box to confirm that you dispute the chargeback with this evidence',
});
