import { checkoutPorts } from '../../shared/services/checkout';
import { testHelperCheckout } from '../../shared/api/payment-links';
import { newClientKey } from '../../shared/checkout/session';
import { paymentResource } from '../../shared/domain/payments';
import { apiHandler } from '../../shared/http/api';
import { checkoutAtOnce } from '../../shared/use-cases/checkout';
import { getPaymentLink } from '../../shared/use-cases/payment-links';

const deps = checkoutPorts();

/**
 * POST /v1/test_helpers/payment_links/{id}/checkout: the checkout page's code path without a
 * browser. 201 with the payment; 409 envelope with `reason` when the link denies checkout.
 */
export const handler = apiHandler(
  testHelperCheckout,
  async ({ principal, path, body, urls, deadline }) => {
    const context = deps(urls);
    const link = await getPaymentLink(context, principal, path.id);
    const details = { email: body.email, phone: body.phone, address: body.address };
    const customer = body.client_key === undefined ? { clientKey: newClientKey(), returning: false } : { clientKey: body.client_key, returning: true };
    const done = await checkoutAtOnce(context, link, customer, body.outcome ?? 'paid', details, deadline);
    return { status: 201, body: paymentResource(done, urls) };
  },
);
