import { dashboardSearch } from '../../shared/api/pages';
import {
  chargebackPorts,
  dashboardSessionServices,
  endpointPorts,
  eventPorts,
  linkPorts,
  paymentPorts,
  refundPorts,
  settlementPorts,
} from '../../shared/services/dashboard';
import { SEARCHABLE } from '../../shared/domain/dashboard';
import { BusinessRuleError, NotFoundError } from '../../shared/errors';
import { dashboardPage } from '../../shared/dashboard/http';
import { searchPage } from '../../shared/dashboard/pages';
import { search } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = { ...linkPorts(), ...paymentPorts(), ...refundPorts(), ...chargebackPorts(), ...eventPorts(), ...endpointPorts(), ...settlementPorts() };

/**
 * GET /dashboard/search?id=…: 303 to the page of the object with that id (a payment link,
 * payment, refund, chargeback, event, webhook endpoint or settlement), or, for an email, to the
 * payments of the customer who gave it; an id of no such kind
 * (422) or of nothing the caller owns (404) shows the search again with the reason. A key
 * without the object's read scope gets the 403 page, as on the object's page.
 */
export const handler = dashboardPage(dashboardSearch, sessions, async (request) => {
  const id = (request.event.queryStringParameters?.id ?? '').trim();
  // A customer's email: their payments, the payments list filtered by it (product-decisions §18).
  if (id.includes('@')) return { status: 303, headers: { location: `${request.urls.dashboard}/payments?customer_email=${encodeURIComponent(id)}` }, html: '' };
  try {
    const kind = await search(reads, request.principal, id);
    return { status: 303, headers: { location: `${request.urls.dashboard}/${SEARCHABLE[kind].path}/${encodeURIComponent(id)}` }, html: '' };
  } catch (error) {
    if (error instanceof BusinessRuleError) return { status: 422, html: searchPage(request, id, error.detail) };
    if (error instanceof NotFoundError) return { status: 404, html: searchPage(request, id, `Nothing with the id ${id} in this organization and mode.`) };
    throw error;
  }
});
