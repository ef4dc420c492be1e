import { paymentLinkPorts } from '../../shared/services/payment-links';
import { checkoutErrorPage, declinedPage, outcomePage, processingPage, thankYouPage } from '../../shared/checkout/pages';
import { NotFoundError } from '../../shared/errors';
import { pageHandler } from '../../shared/http/page';
import { merchantOf } from '../../shared/use-cases/checkout';

const deps = paymentLinkPorts();

/**
 * GET /checkout/{id}/thank-you?payment_id=…: the built-in page after a successful payment. A
 * live payment comes back here from the acquirer's page before its outcome is known: the page
 * says "processing" and looks again until the outcome, then shows it.
 */
export const handler = pageHandler(async (event, urls) => {
  const context = deps(urls);
  const paymentId = event.queryStringParameters?.payment_id ?? '';
  const [link, payment] = await Promise.all([context.links.get(event.pathParameters?.id ?? ''), context.payments.get(paymentId)]);
  if (!link || payment?.paymentLinkId !== link.id || (payment.status !== 'paid' && link.mode !== 'live')) throw new NotFoundError('No such payment');
  const merchant = await merchantOf(context, link);
  if (payment.status === 'paid') return { status: 200, html: thankYouPage(payment.id, link, merchant) };
  if (payment.status === 'open') return { status: 200, html: processingPage(payment.id, link, merchant) };
  if (payment.status === 'failed') return { status: 200, html: declinedPage(payment, link, merchant, `${urls.checkout}/${link.id}`) };
  return { status: 200, html: outcomePage(payment.status, `${urls.checkout}/${link.id}`) };
}, checkoutErrorPage);
