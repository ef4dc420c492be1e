import type { SecretSealer } from '../domain/sealing';
import { loadConfig } from '../config';
import { once, onceAsync } from './wiring';

/** The KMS adapter, loaded on the first seal or open: a request that reads no sealed secret never loads the KMS client. */
const kmsSealer = /* @__PURE__ */ onceAsync(async () => {
  const { createKmsSealer } = await import('../crypto/kms-sealer');
  return createKmsSealer({ keyArn: loadConfig().secretsKeyArn });
});

/** The functions that seal or open secrets (their routes declare `sealedSecrets`): KMS, under the stage's key (SECRETS_KEY_ARN). */
export const secretSealer = /* @__PURE__ */ once(
  (): SecretSealer => ({
    seal: async (plaintext, context) => (await kmsSealer()).seal(plaintext, context),
    open: async (sealed, context) => (await kmsSealer()).open(sealed, context),
  }),
);
