import { adyenSecret } from './acquirer-secret';
import { onceAsync } from './wiring';

/**
 * The acquirer that takes live chargebacks' answers (Adyen Dispute Service v30), built on first
 * use from the secret: a test-mode answer never loads the adapter or reads the secret.
 */
export const disputeAcquirer = /* @__PURE__ */ onceAsync(async () => {
  const [secret, { adyenClient }, { adyenDisputes }] = await Promise.all([adyenSecret(), import('../acquirer/adyen-client'), import('../acquirer/adyen-disputes')]);
  return adyenDisputes(adyenClient(secret));
});
