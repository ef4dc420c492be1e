import { fromAdyenSecret } from './acquirer-secret';

/**
 * The acquirer that takes live chargebacks' answers (Adyen Dispute Service v30), built on first
 * use from the secret: a test-mode answer never loads the adapter or reads the secret.
 */
export const disputeAcquirer = /* @__PURE__ */ fromAdyenSecret(async (secret) => {
  const [{ adyenClient }, { adyenDisputes }] = await Promise.all([import('../acquirer/adyen-client'), import('../acquirer/adyen-disputes')]);
  return adyenDisputes(adyenClient(secret));
});
