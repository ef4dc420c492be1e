import { readAdyenSecret } from '../acquirer/adyen-secret';
import { loadConfig } from '../config';
import { onceAsync } from './wiring';

/** The acquirer's one secret (ADYEN_SECRET_ARN), read once per cold start by the functions that talk to Adyen. */
export const adyenSecret = /* @__PURE__ */ onceAsync(() => {
  const config = loadConfig();
  return readAdyenSecret({ arn: config.adyenSecretArn, endpoint: config.secretsManagerEndpoint });
});
