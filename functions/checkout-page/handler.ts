import { checkoutOpeningServices } from '../../shared/services/checkout';
import { checkoutPage, deniedPage } from '../../shared/checkout/pages';
import { CLIENT_KEY_COOKIE, clientKeyCookie, isClientKey, newClientKey } from '../../shared/checkout/session';
import { cookiesOf } from '../../shared/http/cookies';
import { pageHandler } from '../../shared/http/page';
import { CheckoutDeniedError, merchantOf, openCheckout } from '../../shared/use-cases/checkout';
import { hostedPaymentPage } from '../../shared/use-cases/live-checkout';

const deps = checkoutOpeningServices();

/** GET /checkout/{id}: the customer's checkout page (public); in live mode it opens the acquirer's hosted payment page for its Pay. */
export const handler = pageHandler(async (event, urls) => {
  const linkId = event.pathParameters?.id ?? '';
  const known = cookiesOf(event)[CLIENT_KEY_COOKIE];
  const clientKey = isClientKey(known) ? known : newClientKey();
  const cookies = known === clientKey ? undefined : [clientKeyCookie(clientKey, urls.checkout.startsWith('https:'))];
  const context = deps(urls);
  try {
    const { link, payment } = await openCheckout(context, linkId, { clientKey, returning: known === clientKey });
    if (link.mode === 'live') await hostedPaymentPage(context, link, payment, urls);
    const merchant = await merchantOf(context, link);
    return { status: 200, html: checkoutPage({ link, merchant, paymentId: payment.id, action: `${urls.checkout}/${link.id}` }), cookies };
  } catch (error) {
    if (error instanceof CheckoutDeniedError) return { status: 409, html: deniedPage(error.denial), cookies };
    throw error;
  }
});
