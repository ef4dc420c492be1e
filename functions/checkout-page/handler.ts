import { checkoutServices } from '../../shared/services';
import { checkoutPage, deniedPage } from '../../shared/checkout/pages';
import { CLIENT_KEY_COOKIE, clientKeyCookie, isClientKey, newClientKey } from '../../shared/checkout/session';
import { cookiesOf } from '../../shared/http/cookies';
import { pageHandler } from '../../shared/http/page';
import { CheckoutDeniedError, openCheckout } from '../../shared/use-cases/checkout';

const deps = checkoutServices();

/** GET /checkout/{id}: the customer's checkout page (public). */
export const handler = pageHandler(async (event, urls) => {
  const linkId = event.pathParameters?.id ?? '';
  const known = cookiesOf(event)[CLIENT_KEY_COOKIE];
  const clientKey = isClientKey(known) ? known : newClientKey();
  const cookies = known === clientKey ? undefined : [clientKeyCookie(clientKey, urls.checkout.startsWith('https:'))];
  try {
    const { link, payment } = await openCheckout(deps(urls), linkId, clientKey);
    return { status: 200, html: checkoutPage(link, payment.id, `${urls.checkout}/${link.id}`), cookies };
  } catch (error) {
    if (error instanceof CheckoutDeniedError) return { status: 409, html: deniedPage(error.denial), cookies };
    throw error;
  }
});
