import '../shared/quiet-sdk';
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BUNDLE_EVERY_HANDLER_CONTEXT } from '../lib/function-bundles';
import { PaymentOpsStack, STACK_ID } from '../lib/payment-ops-stack';

// Every function of the service in one esbuild run: the synth takes a third of the time.
const app = new App({ context: { [BUNDLE_EVERY_HANDLER_CONTEXT]: true } });
new PaymentOpsStack(app, STACK_ID, {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
