import type Client from '@adyen/api-library/lib/src/client';
import { ModificationsApi } from '@adyen/api-library/lib/src/services/checkout/modificationsApi';
import { PaymentsApi } from '@adyen/api-library/lib/src/services/checkout/paymentsApi';
import type { PaymentAcquirer } from '../domain/acquirer';
import { cancelKey, cancelRequest, captureKey, captureRequest, hostedPayment, receipt, refundRequest, sessionRequest } from './adyen-transformers';

/**
 * Live payments through Adyen's Checkout API v71: a Hosted Checkout session (PaymentsApi), then
 * captures, cancels and refunds of the payment (ModificationsApi). Both load the library's
 * Checkout models (about 40 ms of a cold start), so only the functions that move live payments
 * import this module.
 */
export function adyenPayments(client: Client): PaymentAcquirer {
  const payments = new PaymentsApi(client);
  const modifications = new ModificationsApi(client);
  return {
    async startHostedPayment(request) {
      return hostedPayment(await payments.sessions(sessionRequest(request)));
    },
    async capture(payment, amount) {
      return receipt(await modifications.captureAuthorisedPayment(payment.acquirerReference, captureRequest(payment, amount), { idempotencyKey: captureKey(payment) }));
    },
    async cancel(payment) {
      return receipt(await modifications.cancelAuthorisedPaymentByPspReference(payment.acquirerReference, cancelRequest(payment), { idempotencyKey: cancelKey(payment) }));
    },
    async refund(request) {
      return receipt(await modifications.refundCapturedPayment(request.payment.acquirerReference, refundRequest(request), { idempotencyKey: request.refundId }));
    },
  };
}
