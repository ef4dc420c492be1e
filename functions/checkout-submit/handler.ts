import { checkoutPorts } from '../../shared/services/checkout';
import * as z from '../../shared/zod';
import { readCustomerDetails } from '../../shared/checkout/form';
import { TEST_OUTCOMES, checkoutErrorPage, checkoutPage, outcomePage } from '../../shared/checkout/pages';
import { thankYouUrl } from '../../shared/domain/payments';
import { CLIENT_KEY_COOKIE } from '../../shared/checkout/session';
import { cookiesOf } from '../../shared/http/cookies';
import { formFields, pageHandler } from '../../shared/http/page';
import { parseWith } from '../../shared/http/validation';
import { customerCheckout, endCustomerCheckout, merchantOf } from '../../shared/use-cases/checkout';
import { continueToAcquirer } from '../../shared/use-cases/live-checkout';

const deps = checkoutPorts();

const submission = z.object({ payment_id: z.string(), outcome: z.enum(TEST_OUTCOMES) });

/**
 * POST /checkout/{id}: the customer's choice on the checkout.
 * 1. The payment must be this link's and this customer's (client_key cookie), each read once.
 * 2. The customer's details are read with the test helper's rules; a refused one (of the wrong
 *    shape, or one the link collects left empty to pay) brings the checkout back with what was
 *    typed and the problem beside its field, never a page without the form.
 * 3. Live (Pay only): on to the acquirer's hosted payment page (shared/use-cases/live-checkout.ts).
 * 4. Test, paid: redirect to the link's redirect_url, else to the thank-you page with the payment id.
 */
export const handler = pageHandler(async (event, urls, deadline) => {
  const linkId = event.pathParameters?.id ?? '';
  const fields = formFields(event);
  const form = parseWith(submission, fields, 'body');
  const context = deps(urls);
  const checkout = await customerCheckout(context, linkId, form.payment_id, cookiesOf(event)[CLIENT_KEY_COOKIE], form.outcome);
  const { link, payment } = checkout;
  const read = readCustomerDetails(link, fields, form.outcome);
  if ('refused' in read) {
    const page = { link, merchant: await merchantOf(context, link), paymentId: payment.id, action: `${urls.checkout}/${link.id}`, refused: read.refused };
    return { status: read.refused.status, html: checkoutPage(page) };
  }
  if (link.mode === 'live') return { status: 303, headers: { location: await continueToAcquirer(context, payment, read.details, urls) }, html: '' };
  const done = await endCustomerCheckout(context, checkout, form.outcome, read.details, deadline);
  if (done.status !== 'paid') return { status: 200, html: outcomePage(done.status, `${urls.checkout}/${link.id}`) };
  const target = link.redirectUrl ? withPaymentId(link.redirectUrl, done.id) : thankYouUrl(urls, done);
  return { status: 303, headers: { location: target }, html: '' };
}, checkoutErrorPage);

function withPaymentId(url: string, paymentId: string): string {
  const target = new URL(url);
  target.searchParams.set('payment_id', paymentId);
  return target.toString();
}
