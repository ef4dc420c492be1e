import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { AwsError } from './aws-error';
import type { PolicyStatement } from './iam';

/** One customer managed key of the template: its id and ARN, its aliases, its key policy, and whether it is enabled. */
export interface LocalKeySpec {
  keyId: string;
  arn: string;
  aliases: string[];
  policy: PolicyStatement[];
  enabled: boolean;
}

/** A key's id as KMS writes one (a UUID), the same for a template's key on every run: from the stack and the key's logical id. */
export function localKeyId(stackName: string, logicalId: string): string {
  const hex = createHash('sha256').update(`${stackName}/${logicalId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const VERSION = 1;
const KEY_ID_BYTES = 36;
const IV_BYTES = 12;
const TAG_BYTES = 16;

const INVALID_CIPHERTEXT = () => new AwsError('InvalidCiphertextException', '');

/** The encryption context as authenticated data: its pairs sorted by key, so that the order a caller gives them in does not matter. */
function contextData(context: unknown): Buffer {
  if (context !== undefined && (typeof context !== 'object' || context === null || Object.values(context).some((value) => typeof value !== 'string'))) {
    throw new AwsError('ValidationException', 'EncryptionContext must be a map of strings to strings.');
  }
  const pairs = Object.entries((context ?? {}) as Record<string, string>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Buffer.from(JSON.stringify(pairs), 'utf8');
}

/** Where the keys' material outlasts a restart: `DATA_DIR/kms-keys.json` (nowhere for `:memory:`), so that what was sealed before can be opened after. */
function keyMaterial(dataDir: string, keyIds: string[]): Map<string, Buffer> {
  const file = dataDir === ':memory:' ? undefined : join(dataDir, 'kms-keys.json');
  const kept = file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const material = new Map(Object.entries(kept).map(([keyId, base64]) => [keyId, Buffer.from(base64, 'base64')]));
  const missing = keyIds.filter((keyId) => !material.has(keyId));
  for (const keyId of missing) material.set(keyId, randomBytes(32));
  if (file && missing.length > 0) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(`${file}.next`, JSON.stringify(Object.fromEntries([...material].map(([keyId, bytes]) => [keyId, bytes.toString('base64')]))), { mode: 0o600 });
    renameSync(`${file}.next`, file);
  }
  return material;
}

/**
 * AWS KMS for the local stack: the template's `AWS::KMS::Key` resources (symmetric, AES-256-GCM
 * here as in KMS) with their aliases, served by the local AWS edge after IAM's check, which for
 * KMS starts at the key policy (`decideOnKey`, iam.ts). Encrypt, Decrypt and GenerateDataKey
 * (JSON 1.1, blobs in base64) as KMS answers them: a ciphertext names its key and is bound to
 * the encryption context it was made with, so another context, another key or a changed byte
 * is `InvalidCiphertextException` (a KeyId that is not the ciphertext's: `IncorrectKeyException`);
 * at most 4,096 bytes of plaintext, data keys of 1 to 1,024 bytes; a disabled key is
 * `DisabledException`. The key material is kept in the data folder. Not imitated: rotation
 * (a rotated key in KMS still decrypts what it encrypted before, so nothing shows it), grants,
 * asymmetric and HMAC keys, ReEncrypt, the `kms:EncryptionContext:` condition keys.
 */
export function createLocalKms(options: { keys: LocalKeySpec[]; region: string; account: string; dataDir: string }) {
  const material = keyMaterial(options.dataDir, options.keys.map((key) => key.keyId));

  /** A key by its id, its ARN, an alias name or an alias's ARN. */
  function find(keyId: unknown): LocalKeySpec {
    const name = String(keyId ?? '');
    const key = options.keys.find(
      (candidate) =>
        candidate.keyId === name || candidate.arn === name || candidate.aliases.some((alias) => alias === name || `arn:aws:kms:${options.region}:${options.account}:${alias}` === name),
    );
    if (!key) throw new AwsError('NotFoundException', `Key '${name.startsWith('arn:') ? name : `arn:aws:kms:${options.region}:${options.account}:key/${name}`}' does not exist`);
    return key;
  }

  /** The key a ciphertext names (its first bytes), or InvalidCiphertextException. */
  function keyOfCiphertext(blob: Buffer): LocalKeySpec {
    if (blob.length < 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES || blob[0] !== VERSION) throw INVALID_CIPHERTEXT();
    const keyId = blob.subarray(1, 1 + KEY_ID_BYTES).toString('latin1');
    const key = options.keys.find((candidate) => candidate.keyId === keyId);
    if (!key) throw INVALID_CIPHERTEXT();
    return key;
  }

  const usable = (key: LocalKeySpec) => {
    if (!key.enabled) throw new AwsError('DisabledException', `${key.arn} is disabled.`);
    return key;
  };

  function encrypt(key: LocalKeySpec, plaintext: Buffer, context: unknown): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', material.get(key.keyId)!, iv);
    cipher.setAAD(contextData(context));
    const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), Buffer.from(key.keyId, 'latin1'), iv, cipher.getAuthTag(), sealed]);
  }

  function blobOf(value: unknown, member: string): Buffer {
    if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw new AwsError('SerializationException', `${member} is not a base64 blob.`);
    return Buffer.from(value, 'base64');
  }

  function plaintextOf(body: Record<string, unknown>): Buffer {
    const plaintext = blobOf(body.Plaintext ?? '', 'Plaintext');
    if (plaintext.length < 1 || plaintext.length > AWS_LIMITS.kms.encryptPlaintextBytes) {
      throw new AwsError(
        'ValidationException',
        `1 validation error detected: Value at 'plaintext' failed to satisfy constraint: Member must have length ${plaintext.length < 1 ? 'greater than or equal to 1' : `less than or equal to ${AWS_LIMITS.kms.encryptPlaintextBytes}`}`,
      );
    }
    return plaintext;
  }

  function dataKeyBytes(body: Record<string, unknown>): number {
    if (body.KeySpec !== undefined && body.NumberOfBytes !== undefined) throw new AwsError('ValidationException', 'Please specify either number of bytes or key spec.');
    if (body.KeySpec === 'AES_256') return 32;
    if (body.KeySpec === 'AES_128') return 16;
    const bytes = Number(body.NumberOfBytes);
    if (body.KeySpec !== undefined || !Number.isInteger(bytes) || bytes < 1 || bytes > AWS_LIMITS.kms.dataKeyBytes) {
      throw new AwsError('ValidationException', body.KeySpec === undefined && body.NumberOfBytes === undefined ? 'Please specify either number of bytes or key spec.' : 'Invalid KeySpec or NumberOfBytes.');
    }
    return bytes;
  }

  return {
    /** The IAM action and the key a call is decided on: the key the request names, or for Decrypt the ciphertext's. */
    access(operation: string, body: Record<string, unknown>): { action: string; key: LocalKeySpec } {
      if (!['Encrypt', 'Decrypt', 'GenerateDataKey'].includes(operation)) throw new AwsError('UnsupportedOperationException', `${operation} is not imitated locally`);
      const key = operation === 'Decrypt' ? keyOfCiphertext(blobOf(body.CiphertextBlob, 'CiphertextBlob')) : find(body.KeyId);
      return { action: `kms:${operation}`, key };
    },

    serve(operation: string, body: Record<string, unknown>, key: LocalKeySpec): Record<string, unknown> {
      usable(key);
      switch (operation) {
        case 'Encrypt':
          return { CiphertextBlob: encrypt(key, plaintextOf(body), body.EncryptionContext).toString('base64'), KeyId: key.arn, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
        case 'GenerateDataKey': {
          const plaintext = randomBytes(dataKeyBytes(body));
          return { CiphertextBlob: encrypt(key, plaintext, body.EncryptionContext).toString('base64'), Plaintext: plaintext.toString('base64'), KeyId: key.arn };
        }
        default: {
          if (body.KeyId !== undefined && find(body.KeyId) !== key) {
            throw new AwsError('IncorrectKeyException', 'The key ID in the request does not identify a CMK that can perform this operation.');
          }
          const blob = blobOf(body.CiphertextBlob, 'CiphertextBlob');
          const iv = blob.subarray(1 + KEY_ID_BYTES, 1 + KEY_ID_BYTES + IV_BYTES);
          const tag = blob.subarray(1 + KEY_ID_BYTES + IV_BYTES, 1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES);
          const decipher = createDecipheriv('aes-256-gcm', material.get(key.keyId)!, iv);
          decipher.setAAD(contextData(body.EncryptionContext));
          decipher.setAuthTag(tag);
          try {
            const plaintext = Buffer.concat([decipher.update(blob.subarray(1 + KEY_ID_BYTES + IV_BYTES + TAG_BYTES)), decipher.final()]);
            return { KeyId: key.arn, Plaintext: plaintext.toString('base64'), EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' };
          } catch {
            throw INVALID_CIPHERTEXT();
          }
        }
      }
    },
  };
}

export type LocalKms = ReturnType<typeof createLocalKms>;
