import type { AdyenSecret } from '../acquirer/adyen-secret';
import { loadConfig } from '../config';
import { cachedFor } from './wiring';

/**
 * How long a function keeps the acquirer's secret before reading it again: a credential written
 * into the secret (docs/operations.md) reaches every warm function within this time, without a
 * deploy, for one GetSecretValue a function every five minutes.
 */
export const ADYEN_SECRET_TTL_MS = 5 * 60_000;

/**
 * The acquirer's one secret (ADYEN_SECRET_ARN), read by the functions that talk to Adyen, again
 * once ADYEN_SECRET_TTL_MS has passed. The Secrets Manager client is loaded on first use: a
 * test-mode checkout page never pays for it.
 */
export const adyenSecret = /* @__PURE__ */ cachedFor(ADYEN_SECRET_TTL_MS, async () => {
  const config = loadConfig();
  const { readAdyenSecret } = await import('../acquirer/adyen-secret');
  return readAdyenSecret(config.adyenSecretArn);
});

/**
 * An adapter built from the acquirer's secret, built again when the secret was read again (its
 * value may have changed); a failed build is forgotten.
 */
export function fromAdyenSecret<T>(build: (secret: AdyenSecret) => Promise<T> | T): () => Promise<T> {
  let built: { secret: AdyenSecret; value: Promise<T> } | undefined;
  return async () => {
    const secret = await adyenSecret();
    if (built?.secret !== secret) {
      const value = Promise.resolve(secret).then(build);
      built = { secret, value };
      value.catch(() => {
        if (built?.value === value) built = undefined;
      });
    }
    return built.value;
  };
}

/** The acquirer the secret is for, by the name its disputes' chargebacks carry (`acquirer.name`, product-decisions §12). */
export const ACQUIRER_NAME = 'adyen';
