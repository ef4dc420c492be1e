import '../shared/quiet-sdk';
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PaymentOpsStack, STACK_ID } from '../lib/payment-ops-stack';

const app = new App();
new PaymentOpsStack(app, STACK_ID, {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
