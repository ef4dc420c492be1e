import { dashboardPaymentLink } from '../../shared/api/pages';
import { dashboardSessionServices, deliveryPorts, linkPorts, paymentPorts } from '../../shared/services/dashboard';
import { dashboardPage } from '../../shared/dashboard/http';
import { linkQueryOf } from '../../shared/dashboard/lists';
import { linkPage } from '../../shared/dashboard/pages';
import { paymentLinkView } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = { ...linkPorts(), ...paymentPorts(), ...deliveryPorts() };

/** GET /dashboard/payment-links/{id}: the link, its forms (a refused one again), its payments and its events, without opening its checkout. */
export const handler = dashboardPage(dashboardPaymentLink, sessions, async (request) => {
  const { principal, event } = request;
  const view = await paymentLinkView(reads, principal, event.pathParameters?.id ?? '', linkQueryOf(event));
  return { status: 200, html: linkPage(request, view, { edit: request.formState('edit-link'), status: request.formState('link-status') }) };
});
