import { checkoutServices } from '../../shared/services/checkout';
import * as z from '../../shared/zod';
import { TEST_OUTCOMES, checkoutErrorPage, checkoutPage, outcomePage } from '../../shared/checkout/pages';
import { CLIENT_KEY_COOKIE } from '../../shared/checkout/session';
import { ConflictError, NotFoundError } from '../../shared/errors';
import { cookiesOf } from '../../shared/http/cookies';
import { formFields, pageHandler } from '../../shared/http/page';
import { parseWith } from '../../shared/http/validation';
import { MissingCustomerDetailsError } from '../../shared/domain/payment-links';
import { customerDetailsInput } from '../../shared/domain/payments';
import { completePayment, merchantOf } from '../../shared/use-cases/checkout';

const deps = checkoutServices();

const submission = z.object({ payment_id: z.string(), outcome: z.enum(TEST_OUTCOMES), ...customerDetailsInput });

/**
 * POST /checkout/{id}: the customer's choice on the test-mode checkout.
 * 1. The payment must be this link's and this customer's (client_key cookie).
 * 2. Fields the link collects are required to pay (the use case's rule, as for the test helper).
 * 3. Paid: redirect to the link's redirect_url, else to the thank-you page with the payment id.
 */
export const handler = pageHandler(async (event, urls, deadline) => {
  const linkId = event.pathParameters?.id ?? '';
  const form = parseWith(submission, stripEmpty(formFields(event)), 'body');
  const context = deps(urls);
  const [link, payment] = await Promise.all([context.links.get(linkId), context.payments.get(form.payment_id)]);
  if (!link || !payment || payment.paymentLinkId !== link.id || payment.clientKey !== cookiesOf(event)[CLIENT_KEY_COOKIE]) {
    throw new NotFoundError('This checkout session does not exist');
  }
  if (link.mode !== 'test') throw new ConflictError('Live payments are completed on the acquirer payment page');
  let done;
  try {
    done = await completePayment(context, payment.id, form.outcome, { email: form.email, phone: form.phone, address: form.address }, deadline);
  } catch (error) {
    if (!(error instanceof MissingCustomerDetailsError)) throw error;
    const page = { link, merchant: await merchantOf(context, link), paymentId: payment.id, action: `${urls.checkout}/${link.id}` };
    return { status: 400, html: checkoutPage({ ...page, error: `Please enter your ${error.labels.join(', ')}.` }) };
  }
  if (done.status !== 'paid') return { status: 200, html: outcomePage(done.status, `${urls.checkout}/${link.id}`) };
  const target = link.redirectUrl ? withPaymentId(link.redirectUrl, done.id) : `${urls.checkout}/${link.id}/thank-you?payment_id=${done.id}`;
  return { status: 303, headers: { location: target }, html: '' };
}, checkoutErrorPage);

function stripEmpty(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value.trim() !== ''));
}

function withPaymentId(url: string, paymentId: string): string {
  const target = new URL(url);
  target.searchParams.set('payment_id', paymentId);
  return target.toString();
}

