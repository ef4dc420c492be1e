import { dashboardChargeback } from '../../shared/api/pages';
import { chargebackPorts, dashboardSessionServices } from '../../shared/services/dashboard';
import { documentUploadOriginService } from '../../shared/services/chargeback-answers';
import { answerable, chargebackPage, EVIDENCE_SCRIPT } from '../../shared/dashboard/chargebacks';
import { dashboardPage, scriptPolicy } from '../../shared/dashboard/http';
import { chargebackView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = chargebackPorts();

/**
 * GET /dashboard/chargebacks/{id}: one chargeback, its deadline counting down while it is open,
 * its answers (a refused one again) while it can be answered, with the script that uploads the
 * dispute's documents (allowed by its hash, and to reach this origin and the store's only).
 */
export const handler = dashboardPage(dashboardChargeback, sessions, async (request) => {
  const chargeback = await chargebackView(reads, request.principal, request.event.pathParameters?.id ?? '');
  const now = new Date();
  const html = chargebackPage(request, chargeback, now, { accept: request.formState('accept-chargeback'), dispute: request.formState('dispute-chargeback') });
  return { status: 200, html, ...(answerable(request, chargeback, now) ? { headers: scriptPolicy(EVIDENCE_SCRIPT, await documentUploadOriginService()) } : {}) };
});
