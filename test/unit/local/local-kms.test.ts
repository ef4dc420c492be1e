import { DecryptCommand, EncryptCommand, GenerateDataKeyCommand, KMSClient, type DecryptCommandInput } from '@aws-sdk/client-kms';
import { ArnPrincipal, Effect, PolicyDocument, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretsKey } from '../../../lib/secrets-key';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { createKmsSealer } from '../../../shared/crypto/kms-sealer';
import { SealedSecretMismatchError } from '../../../shared/domain/sealing';
import { DependencyUnavailableError } from '../../../shared/errors';
import { createLocalKms, localKeyId } from '../../../bin/local/aws/kms';
import { startMiniAws, type MiniAws } from '../../support/mini-aws';

/**
 * The local KMS (bin/local/aws/kms.ts) behind the local AWS edge, over HTTP with the SDK's KMS
 * client as a deployed function calls it: the key policy as KMS evaluates it (the account root
 * delegating to IAM, or a role named in it), the service's SecretsKey construct granting each
 * function only what it does, ciphertexts bound to their key and encryption context, KMS's limits.
 */
let mini: MiniAws;
let keyArn: string;
let narrowKeyArn: string;
let disabledKeyArn: string;
let denyingKeyArn: string;
const kmsAs = (name: string) => new KMSClient({ ...mini.edge, credentials: mini.credentialsOf(name) });
const CONTEXT = { purpose: 'totp', user_id: 'usr_01' };
const bytes = (text: string) => Buffer.from(text, 'utf8');

beforeAll(async () => {
  mini = await startMiniAws(['Sealer', 'Opener', 'Bystander', 'Named'], (stack, functions) => {
    const secrets = new SecretsKey(stack, 'Secrets');
    secrets.connect(functions.Sealer, ['seal', 'open']);
    // The service seals with Encrypt alone; the local KMS's GenerateDataKey is checked with a grant of its own.
    secrets.key.grant(functions.Sealer, 'kms:GenerateDataKey');
    secrets.connect(functions.Opener, ['open']);
    // A key whose policy names one role and not the account: IAM grants elsewhere open nothing.
    const narrow = new Key(stack, 'Narrow', {
      policy: new PolicyDocument({ statements: [new PolicyStatement({ actions: ['kms:Encrypt', 'kms:Decrypt'], principals: [new ArnPrincipal(functions.Named.role!.roleArn)], resources: ['*'] })] }),
    });
    narrow.grantEncryptDecrypt(functions.Sealer);
    // The account's root delegates to IAM, but an explicit Deny in the key policy wins over the Sealer's IAM grant.
    const denying = new Key(stack, 'Denying');
    denying.addToResourcePolicy(new PolicyStatement({ effect: Effect.DENY, actions: ['kms:Decrypt'], principals: [new ArnPrincipal(functions.Sealer.role!.roleArn)], resources: ['*'] }));
    denying.grantEncryptDecrypt(functions.Sealer);
    const disabled = new Key(stack, 'Disabled', { enabled: false });
    disabled.grantEncryptDecrypt(functions.Sealer);
  });
  const keyOf = (prefix: string) => {
    const [logicalId] = Object.entries(mini.resources).find(([id, resource]) => resource.Type === 'AWS::KMS::Key' && id.startsWith(prefix))!;
    return `arn:aws:kms:local:000000000000:key/${localKeyId('Mini', logicalId)}`;
  };
  keyArn = keyOf('SecretsKey');
  narrowKeyArn = keyOf('Narrow');
  disabledKeyArn = keyOf('Disabled');
  denyingKeyArn = keyOf('Denying');
}, 60_000);
afterAll(() => mini?.stop());

describe('local KMS: Encrypt, Decrypt, GenerateDataKey', () => {
  test('a ciphertext opens with its key and encryption context, whatever the order of the context\'s pairs', async () => {
    // Act
    const sealed = await kmsAs('Sealer').send(new EncryptCommand({ KeyId: keyArn, Plaintext: bytes('JBSWY3DPEHPK3PXP'), EncryptionContext: CONTEXT }));
    const opened = await kmsAs('Opener').send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob, EncryptionContext: { user_id: 'usr_01', purpose: 'totp' } }));
    // Assess
    expect(sealed).toMatchObject({ KeyId: keyArn, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
    expect(Buffer.from(opened.Plaintext!).toString('utf8')).toBe('JBSWY3DPEHPK3PXP');
    expect(opened.KeyId).toBe(keyArn);
  });

  test('another context, no context, a changed byte: InvalidCiphertextException; another KeyId: IncorrectKeyException', async () => {
    // Prepare
    const { CiphertextBlob } = await kmsAs('Sealer').send(new EncryptCommand({ KeyId: keyArn, Plaintext: bytes('secret'), EncryptionContext: CONTEXT }));
    const tampered = Buffer.from(CiphertextBlob!);
    tampered[tampered.length - 1] ^= 1;
    const decrypt = (input: DecryptCommandInput) => kmsAs('Sealer').send(new DecryptCommand(input));
    // Act and assess
    await expect(decrypt({ CiphertextBlob, EncryptionContext: { ...CONTEXT, user_id: 'usr_02' } })).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    await expect(decrypt({ CiphertextBlob })).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    await expect(decrypt({ CiphertextBlob: tampered, EncryptionContext: CONTEXT })).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    await expect(decrypt({ CiphertextBlob: Buffer.from('not a ciphertext at all, long enough to parse as one'), EncryptionContext: CONTEXT })).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    await expect(decrypt({ KeyId: narrowKeyArn, CiphertextBlob, EncryptionContext: CONTEXT })).rejects.toMatchObject({ name: 'IncorrectKeyException' });
  });

  test('limits: at most 4,096 bytes of plaintext; a data key of 1 to 1,024 bytes', async () => {
    const kms = kmsAs('Sealer');
    await expect(kms.send(new EncryptCommand({ KeyId: keyArn, Plaintext: Buffer.alloc(AWS_LIMITS.kms.encryptPlaintextBytes, 1) }))).resolves.toMatchObject({ KeyId: keyArn });
    await expect(kms.send(new EncryptCommand({ KeyId: keyArn, Plaintext: Buffer.alloc(AWS_LIMITS.kms.encryptPlaintextBytes + 1, 1) }))).rejects.toMatchObject({
      name: 'ValidationException',
      message: "1 validation error detected: Value at 'plaintext' failed to satisfy constraint: Member must have length less than or equal to 4096",
    });
    await expect(kms.send(new GenerateDataKeyCommand({ KeyId: keyArn, NumberOfBytes: 1025 }))).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(kms.send(new GenerateDataKeyCommand({ KeyId: keyArn }))).rejects.toMatchObject({ name: 'ValidationException', message: 'Please specify either number of bytes or key spec.' });
  });

  test('GenerateDataKey: a 256-bit key in plaintext and sealed under the key, bound to the context', async () => {
    // Prepare: GenerateDataKey is kms:GenerateDataKey, granted to the Sealer above
    const dataKey = await kmsAs('Sealer').send(new GenerateDataKeyCommand({ KeyId: keyArn, KeySpec: 'AES_256', EncryptionContext: CONTEXT }));
    // Act
    const opened = await kmsAs('Opener').send(new DecryptCommand({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: CONTEXT }));
    // Assess
    expect(dataKey.Plaintext).toHaveLength(32);
    expect(Buffer.from(opened.Plaintext!)).toEqual(Buffer.from(dataKey.Plaintext!));
  });

  test('an unknown key is NotFoundException; a disabled one DisabledException', async () => {
    await expect(kmsAs('Sealer').send(new EncryptCommand({ KeyId: 'alias/nothing', Plaintext: bytes('x') }))).rejects.toMatchObject({ name: 'NotFoundException' });
    await expect(kmsAs('Sealer').send(new EncryptCommand({ KeyId: disabledKeyArn, Plaintext: bytes('x') }))).rejects.toMatchObject({ name: 'DisabledException' });
  });
});

describe('local KMS: IAM and the key policy', () => {
  test('SecretsKey grants each function only its use: the opener may not Encrypt; a function not connected may do nothing', async () => {
    // Prepare
    const { CiphertextBlob } = await kmsAs('Sealer').send(new EncryptCommand({ KeyId: keyArn, Plaintext: bytes('x'), EncryptionContext: CONTEXT }));
    // Act and assess
    await expect(kmsAs('Opener').send(new EncryptCommand({ KeyId: keyArn, Plaintext: bytes('x') }))).rejects.toMatchObject({ name: 'AccessDeniedException', message: expect.stringContaining('kms:Encrypt') });
    await expect(kmsAs('Bystander').send(new DecryptCommand({ CiphertextBlob, EncryptionContext: CONTEXT }))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(mini.aws.recentDenials().at(-1)).toMatchObject({ action: 'kms:Decrypt', resource: keyArn, reason: 'no identity-based policy allows the kms:Decrypt action' });
  });

  test('a key policy without the account root: an IAM grant alone opens nothing; the role the key policy names needs no IAM grant', async () => {
    await expect(kmsAs('Sealer').send(new EncryptCommand({ KeyId: narrowKeyArn, Plaintext: bytes('x') }))).rejects.toMatchObject({ name: 'AccessDeniedException' });
    expect(mini.aws.recentDenials().at(-1)).toMatchObject({ action: 'kms:Encrypt', resource: narrowKeyArn, reason: 'no resource-based policy allows the kms:Encrypt action' });
    const sealed = await kmsAs('Named').send(new EncryptCommand({ KeyId: narrowKeyArn, Plaintext: bytes('x') }));
    await expect(kmsAs('Named').send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }))).resolves.toMatchObject({ KeyId: narrowKeyArn });
  });
});

test('local KMS: an explicit Deny in the key policy refuses what IAM allows; the rest of the grant still works', async () => {
  const sealed = await kmsAs('Sealer').send(new EncryptCommand({ KeyId: denyingKeyArn, Plaintext: bytes('x') }));
  await expect(kmsAs('Sealer').send(new DecryptCommand({ CiphertextBlob: sealed.CiphertextBlob }))).rejects.toMatchObject({ name: 'AccessDeniedException' });
  expect(mini.aws.recentDenials().at(-1)).toMatchObject({ action: 'kms:Decrypt', reason: 'an explicit deny refuses kms:Decrypt' });
});

describe('local KMS: the key material', () => {
  test('with a data folder, a ciphertext of one run opens in the next; each key has material of its own', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kms-'));
    try {
      const spec = (keyId: string) => ({ keyId, arn: `arn:aws:kms:local:000000000000:key/${keyId}`, aliases: [], policy: [], enabled: true });
      const keys = [spec(localKeyId('S', 'A')), spec(localKeyId('S', 'B'))];
      const first = createLocalKms({ keys, region: 'local', account: '000000000000', dataDir });
      const { CiphertextBlob } = first.serve('Encrypt', { KeyId: keys[0].keyId, Plaintext: bytes('kept').toString('base64'), EncryptionContext: CONTEXT }, keys[0]);
      const second = createLocalKms({ keys, region: 'local', account: '000000000000', dataDir });
      const { key } = second.access('Decrypt', { CiphertextBlob });
      expect(Buffer.from(String(second.serve('Decrypt', { CiphertextBlob, EncryptionContext: CONTEXT }, key).Plaintext), 'base64').toString()).toBe('kept');
      // The same bytes under the other key's material do not open.
      const forged = Buffer.from(String(CiphertextBlob), 'base64');
      forged.write(keys[1].keyId, 1, 'latin1');
      expect(() => second.serve('Decrypt', { CiphertextBlob: forged.toString('base64'), EncryptionContext: CONTEXT }, keys[1])).toThrow(expect.objectContaining({ code: 'InvalidCiphertextException' }));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('Function: createKmsSealer', () => {
  test('seal then open with the same context gives the plaintext; the sealed text is not it', async () => {
    const sealer = createKmsSealer({ keyArn, client: kmsAs('Sealer') });
    const sealed = await sealer.seal('JBSWY3DPEHPK3PXP', CONTEXT);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(await createKmsSealer({ keyArn, client: kmsAs('Opener') }).open(sealed, CONTEXT)).toBe('JBSWY3DPEHPK3PXP');
  });

  test('opened with another context it is a SealedSecretMismatchError; KMS refusing is a 503; no key configured is a 503', async () => {
    const sealed = await createKmsSealer({ keyArn, client: kmsAs('Sealer') }).seal('s', CONTEXT);
    await expect(createKmsSealer({ keyArn, client: kmsAs('Sealer') }).open(sealed, { ...CONTEXT, user_id: 'usr_02' })).rejects.toBeInstanceOf(SealedSecretMismatchError);
    await expect(createKmsSealer({ keyArn, client: kmsAs('Bystander') }).open(sealed, CONTEXT)).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(createKmsSealer({ keyArn: undefined, client: kmsAs('Sealer') }).seal('s', CONTEXT)).rejects.toBeInstanceOf(DependencyUnavailableError);
  });
});
