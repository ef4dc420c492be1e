import { randomBytes } from 'node:crypto';
import type { AdyenSecret } from '../../shared/acquirer/adyen-secret';
import { startLocalAcquirer, type LocalAcquirer } from './adyen';
import type { FaultPlan } from './faults';
import type { LocalSecret } from './secrets-manager';

/**
 * The acquirer in the local stack (product-decisions §12): the local Adyen and the one secret
 * the functions read it with, exactly as in AWS (ADYEN_SECRET_ARN, Secrets Manager), its
 * `endpoint` naming the local Adyen so that the same adapter talks to it.
 */
export interface LocalAcquirerPlan {
  port: number;
  secret: LocalSecret;
  /** Starts the local Adyen, its notifications going to the stack's receiver at `notificationUrl`, with the faults of `faults`. */
  start(notificationUrl: string | (() => string), faults?: FaultPlan): Promise<LocalAcquirer>;
}

/** The merchant account of the demo acceptor and of the tests' merchants. */
export const LOCAL_MERCHANT_ACCOUNT = 'LocalShopECOM';

/** Locally an unaccepted notification is retried seconds apart, not Adyen's minutes to hours. */
const LOCAL_RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

/** Fresh credentials for one run of the stack, and the secret that carries them. */
export function planLocalAcquirer(port: number): LocalAcquirerPlan {
  const value: AdyenSecret = {
    apiKey: `local_${randomBytes(24).toString('base64url')}`,
    environment: 'test',
    endpoint: `http://127.0.0.1:${port}`,
    hmacKey: randomBytes(32).toString('hex'),
    notificationUsername: 'adyen-notifications',
    notificationPassword: randomBytes(18).toString('base64url'),
  };
  const name = 'payment-ops-acquirer';
  return {
    port,
    secret: { arn: `arn:aws:secretsmanager:local:000000000000:secret:${name}-local0`, name, value: JSON.stringify(value) },
    start: (notificationUrl, faults) =>
      startLocalAcquirer({
        faults,
        port,
        notificationUrl,
        hmacKey: value.hmacKey,
        basicAuth: { username: value.notificationUsername, password: value.notificationPassword },
        apiKey: value.apiKey,
        retryDelaysMs: LOCAL_RETRY_DELAYS_MS,
      }),
  };
}
