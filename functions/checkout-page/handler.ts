import { checkoutOpeningPorts } from '../../shared/services/checkout';
import { checkoutErrorPage, checkoutPage, deniedPage } from '../../shared/checkout/pages';
import { CLIENT_KEY_COOKIE, clientKeyCookie, isClientKey, newClientKey } from '../../shared/checkout/session';
import { cookiesOf } from '../../shared/http/cookies';
import { acceptsHtml, pageHandler } from '../../shared/http/page';
import { CheckoutDeniedError, checkoutPreview, merchantOf, openCheckoutWithMerchant } from '../../shared/use-cases/checkout';
import { hostedPaymentPage } from '../../shared/use-cases/live-checkout';

const deps = checkoutOpeningPorts();

/**
 * GET /checkout/{id}: the customer's checkout page (public); in live mode it opens the
 * acquirer's hosted payment page for its Pay. A HEAD, or a request that does not take HTML (a
 * link preview, a mail scanner), only looks: it gets the page's status (200, the 409 of a
 * denial, 404) and the page without a form, and opens no payment nor writes anything.
 */
export const handler = pageHandler(async (event, urls) => {
  const linkId = event.pathParameters?.id ?? '';
  const action = `${urls.checkout}/${linkId}`;
  const context = deps(urls);
  if (event.requestContext.http.method === 'HEAD' || !acceptsHtml(event)) {
    const { link, denial } = await checkoutPreview(context, linkId);
    if (denial) return { status: 409, html: deniedPage(denial) };
    return { status: 200, html: checkoutPage({ link, merchant: await merchantOf(context, link), action }) };
  }
  const known = cookiesOf(event)[CLIENT_KEY_COOKIE];
  const clientKey = isClientKey(known) ? known : newClientKey();
  const cookies = known === clientKey ? undefined : [clientKeyCookie(clientKey, urls.checkout.startsWith('https:'))];
  try {
    const { link, payment, merchant } = await openCheckoutWithMerchant(context, linkId, { clientKey, returning: known === clientKey });
    if (link.mode === 'live') await hostedPaymentPage(context, link, payment, urls);
    return { status: 200, html: checkoutPage({ link, merchant, paymentId: payment.id, action }), cookies };
  } catch (error) {
    if (error instanceof CheckoutDeniedError) return { status: 409, html: deniedPage(error.denial), cookies };
    throw error;
  }
}, checkoutErrorPage);
