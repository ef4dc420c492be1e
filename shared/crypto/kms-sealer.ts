import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { DependencyUnavailableError } from '../errors';
import { SealedSecretMismatchError, type SealingContext, type SecretSealer } from '../domain/sealing';
import { AWS_LIMITS } from '../aws-limits';
import { logger } from '../observability/logger';

/**
 * The alias of a stage's secrets key (lib/secrets-key.ts): what an operator may name it by
 * (SECRETS_KEY_ARN takes a key's ARN or an alias), and what `npm run ops` names the local
 * stage's key by.
 */
export const secretsKeyAlias = (stackName: string) => `alias/${stackName}/secrets`;

/** The answers of KMS that say the ciphertext is not this key's and context's, rather than that KMS failed. */
const MISMATCH = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

/**
 * Secrets sealed with AWS KMS under the stage's customer managed key (SECRETS_KEY_ARN,
 * lib/secrets-key.ts): `Encrypt` with the context as KMS's encryption context, the ciphertext
 * blob in base64 as the sealed text; `Decrypt` with the same key id and context. The secrets are
 * small (at most 4 KB, KMS's Encrypt limit), so no data key is needed. A ciphertext that does not
 * open is a `SealedSecretMismatchError`; KMS refusing or failing is a 503 (its log line names
 * KMS's error, never the secret or the context's values).
 */
export function createKmsSealer(options: { keyArn: string | undefined; client?: KMSClient }): SecretSealer {
  const client = options.client ?? new KMSClient({});
  const keyId = () => {
    if (!options.keyArn) throw new DependencyUnavailableError('The service is temporarily unavailable (no secrets key configured)');
    return options.keyArn;
  };
  const unavailable = (error: unknown): never => {
    const failure = (error as Error).name || 'unknown';
    if (MISMATCH.has(failure)) throw new SealedSecretMismatchError();
    logger.warn('secrets key unavailable', { failure });
    throw new DependencyUnavailableError();
  };
  return {
    async seal(plaintext: string, context: SealingContext): Promise<string> {
      const bytes = Buffer.from(plaintext, 'utf8');
      if (bytes.length > AWS_LIMITS.kms.encryptPlaintextBytes) throw new RangeError(`A sealed secret holds at most ${AWS_LIMITS.kms.encryptPlaintextBytes} bytes`);
      const sealed = await client.send(new EncryptCommand({ KeyId: keyId(), Plaintext: bytes, EncryptionContext: { ...context } })).catch(unavailable);
      return Buffer.from(sealed.CiphertextBlob!).toString('base64');
    },
    async open(sealed: string, context: SealingContext): Promise<string> {
      const opened = await client.send(new DecryptCommand({ KeyId: keyId(), CiphertextBlob: Buffer.from(sealed, 'base64'), EncryptionContext: { ...context } })).catch(unavailable);
      return Buffer.from(opened.Plaintext!).toString('utf8');
    },
  };
}
