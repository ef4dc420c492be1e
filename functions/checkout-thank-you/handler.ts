import { paymentLinkPorts } from '../../shared/services/payment-links';
import { checkoutErrorPage, declinedPage, outcomePage, processingPage, thankYouPage } from '../../shared/checkout/pages';
import { NotFoundError } from '../../shared/errors';
import { pageHandler } from '../../shared/http/page';
import { merchantOf } from '../../shared/use-cases/checkout';
import { awaitOutcome } from '../../shared/use-cases/live-checkout';

const deps = paymentLinkPorts();

/**
 * GET /checkout/{id}/thank-you?payment_id=…: the built-in page after a successful payment. A
 * live payment comes back here from the acquirer's page, often before its outcome is known: the
 * request waits a few seconds for it (`awaitOutcome`), then shows it, or says "processing" with
 * a Check again button (this page again).
 */
export const handler = pageHandler(async (event, urls, deadline) => {
  const context = deps(urls);
  const paymentId = event.queryStringParameters?.payment_id ?? '';
  const [link, found] = await Promise.all([context.links.get(event.pathParameters?.id ?? ''), context.payments.get(paymentId)]);
  if (!link || found?.paymentLinkId !== link.id || (found.status !== 'paid' && link.mode !== 'live')) throw new NotFoundError('No such payment');
  const [payment, merchant] = await Promise.all([awaitOutcome(context, found, deadline), merchantOf(context, link)]);
  if (payment.status === 'paid') return { status: 200, html: thankYouPage(payment.id, link, merchant) };
  if (payment.status === 'open') return { status: 200, html: processingPage(payment.id, link, merchant, `${urls.checkout}/${link.id}/thank-you`) };
  if (payment.status === 'failed') return { status: 200, html: declinedPage(payment, link, merchant, `${urls.checkout}/${link.id}`) };
  return { status: 200, html: outcomePage(payment.status, `${urls.checkout}/${link.id}`) };
}, checkoutErrorPage);
