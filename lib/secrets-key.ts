import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { SealedSecretsAccess } from '../shared/api/operation';
import { secretsKeyAlias } from '../shared/crypto/kms-sealer';

/**
 * The stage's customer managed KMS key for the secrets the service must read back (two-factor
 * secrets; webhook signing secrets): symmetric, rotated every year by KMS (what it encrypted
 * before still decrypts), retained when the stack is deleted (a deleted key makes every sealed
 * secret unreadable). Its key policy is CDK's default, the account's root, so IAM decides: only
 * the functions connected here (those whose declarations name `sealedSecrets`) may use it, each
 * for what it does (`seal`: kms:Encrypt; `open`: kms:Decrypt), with the key's ARN as their one
 * setting (SECRETS_KEY_ARN). Its alias (`alias/<stack>/secrets`) names it for an operator's
 * `npm run ops`.
 */
export class SecretsKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Seals the secrets the service reads back (two-factor secrets, webhook signing secrets); docs/operations.md',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
      alias: secretsKeyAlias(Stack.of(this).stackName),
    });
  }

  /** A function that seals or opens secrets: the key's ARN, and kms:Encrypt and/or kms:Decrypt on it. */
  connect(fn: LambdaFunction, access: readonly SealedSecretsAccess[]): void {
    fn.addEnvironment('SECRETS_KEY_ARN', this.key.keyArn);
    // kms:Encrypt alone: grantEncrypt adds ReEncrypt* and GenerateDataKey*, which sealing never uses.
    if (access.includes('seal')) this.key.grant(fn, 'kms:Encrypt');
    if (access.includes('open')) this.key.grantDecrypt(fn);
  }
}
