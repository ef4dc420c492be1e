import { loadConfig } from '../config';
import { onceAsync } from './wiring';

/**
 * The acquirer's one secret (ADYEN_SECRET_ARN), read once per cold start by the functions that
 * talk to Adyen. The Secrets Manager client is loaded on first use: a test-mode checkout page
 * never pays for it.
 */
export const adyenSecret = /* @__PURE__ */ onceAsync(async () => {
  const config = loadConfig();
  const { readAdyenSecret } = await import('../acquirer/adyen-secret');
  return readAdyenSecret(config.adyenSecretArn);
});

/** The acquirer the secret is for, by the name its disputes' chargebacks carry (`acquirer.name`, product-decisions §12). */
export const ACQUIRER_NAME = 'adyen';
