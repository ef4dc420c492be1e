import { KMSClient } from '@aws-sdk/client-kms';
import { createLocalKms, localKeyId } from '../../bin/local/aws/kms';
import { LOCAL_ACCOUNT } from '../../bin/local/aws/template';
import type { LocalAws } from '../../bin/local/aws/functions';
import { createKmsSealer } from '../../shared/crypto/kms-sealer';
import { SealedSecretMismatchError, type SealingContext, type SecretSealer } from '../../shared/domain/sealing';

/**
 * The local KMS's engine in this process, one key, no edge and no IAM: for unit tests of what
 * seals and opens secrets without a stack. Its ciphertexts are bound to their context as KMS
 * binds them; `sealed` seals at once, for a fixture built without awaiting.
 */
export function inProcessSealer(): SecretSealer & { sealed(plaintext: string, context: SealingContext): string } {
  const keyId = localKeyId('UnitTests', 'SecretsKey');
  const key = { keyId, arn: `arn:aws:kms:local:${LOCAL_ACCOUNT}:key/${keyId}`, aliases: [], policy: [], enabled: true };
  const kms = createLocalKms({ keys: [key], region: 'local', account: LOCAL_ACCOUNT, dataDir: ':memory:' });
  const sealed = (plaintext: string, context: SealingContext) =>
    String(kms.serve('Encrypt', { KeyId: keyId, Plaintext: Buffer.from(plaintext).toString('base64'), EncryptionContext: context }, key).CiphertextBlob);
  return {
    sealed,
    seal: async (plaintext, context) => sealed(plaintext, context),
    async open(ciphertext, context) {
      try {
        return Buffer.from(String(kms.serve('Decrypt', { CiphertextBlob: ciphertext, EncryptionContext: context }, key).Plaintext), 'base64').toString('utf8');
      } catch {
        throw new SealedSecretMismatchError();
      }
    },
  };
}

/**
 * The operator's sealer on a running stack's local KMS, through its edge (what `npm run ops`
 * seals webhook secrets with): for tests that write endpoints as the operator. It follows the
 * stack's edge across a restart; `close` ends its clients.
 */
export function operatorSealer(aws: () => LocalAws): SecretSealer & { close(): void } {
  const clients = new Map<string, { client: KMSClient; sealer: SecretSealer }>();
  const current = () => {
    const environment = aws().operatorEnvironment();
    const endpoint = environment.AWS_ENDPOINT_URL;
    if (!clients.has(endpoint)) {
      const client = new KMSClient({
        endpoint,
        region: environment.AWS_REGION,
        credentials: { accessKeyId: environment.AWS_ACCESS_KEY_ID, secretAccessKey: environment.AWS_SECRET_ACCESS_KEY },
      });
      clients.set(endpoint, { client, sealer: createKmsSealer({ keyArn: environment.SECRETS_KEY_ARN, client }) });
    }
    return clients.get(endpoint)!.sealer;
  };
  return {
    seal: (plaintext, context) => current().seal(plaintext, context),
    open: (sealed, context) => current().open(sealed, context),
    close: () => clients.forEach(({ client }) => client.destroy()),
  };
}
