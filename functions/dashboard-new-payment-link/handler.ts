import { acceptorPorts, dashboardSessionServices } from '../../shared/services/dashboard';
import { dashboardNewPaymentLink } from '../../shared/api/pages';
import { dashboardPage } from '../../shared/dashboard/http';
import { newLinkPage } from '../../shared/dashboard/pages';
import { acceptorChoices } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const acceptors = acceptorPorts();

/** GET /dashboard/payment-links/new: the create form (a refused one again), for a role that may create links (403 otherwise). */
export const handler = dashboardPage(dashboardNewPaymentLink, sessions, async (request) => {
  return { status: 200, html: newLinkPage(request, { acceptors: await acceptorChoices(acceptors, request.principal), state: request.formState('create-link') }) };
});
