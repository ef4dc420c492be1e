import { RemovalPolicy } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/**
 * The stage's secret key of the customer emails' index (shared/domain/customer-emails.ts): a
 * payment is found by the HMAC-SHA256 of its customer's normalized email with this key, so an
 * index key tells nothing about the address. CloudFormation generates it when it creates the
 * secret (64 letters and digits); nobody sets or reads it by hand. Retained with the stack, and
 * never rotated: a new key would give every address a new digest, and the payments indexed
 * before it would no longer be found (docs/operations.md). Only the functions whose operations
 * declare `customerEmails` may read it (`connect`).
 */
export class CustomerEmailKey extends Construct {
  readonly secret: Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'The secret key of the customer emails index (HMAC-SHA256 of each normalized address); generated, never set by hand (docs/operations.md)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    NagSuppressions.addResourceSuppressions(this.secret, [
      {
        id: 'AwsSolutions-SMG4',
        reason: 'This secret keys the customer emails index: a rotated key would give every address a new digest and lose every payment indexed before it, so it is never rotated (docs/operations.md).',
      },
    ]);
  }

  /** A function that finds or writes payments by email: the secret's ARN as its one setting, and the right to read it. */
  connect(fn: LambdaFunction): void {
    fn.addEnvironment('CUSTOMER_EMAIL_KEY_ARN', this.secret.secretArn);
    this.secret.grantRead(fn);
  }
}
