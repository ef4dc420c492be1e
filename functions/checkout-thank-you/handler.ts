import { paymentLinkServices } from '../../shared/services/payment-links';
import { checkoutErrorPage, thankYouPage } from '../../shared/checkout/pages';
import { NotFoundError } from '../../shared/errors';
import { pageHandler } from '../../shared/http/page';
import { merchantOf } from '../../shared/use-cases/checkout';

const deps = paymentLinkServices();

/** GET /checkout/{id}/thank-you?payment_id=…: the built-in page after a successful payment. */
export const handler = pageHandler(async (event, urls) => {
  const context = deps(urls);
  const paymentId = event.queryStringParameters?.payment_id ?? '';
  const [link, payment] = await Promise.all([context.links.get(event.pathParameters?.id ?? ''), context.payments.get(paymentId)]);
  if (!link || payment?.paymentLinkId !== link.id || payment.status !== 'paid') throw new NotFoundError('No such payment');
  return { status: 200, html: thankYouPage(payment.id, link, await merchantOf(context, link)) };
}, checkoutErrorPage);
