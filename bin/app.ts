import '../shared/quiet-sdk';
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { BUNDLE_EVERY_HANDLER_CONTEXT } from '../lib/function-bundles';
import { PaymentOpsStack } from '../lib/payment-ops-stack';
import { stageOf } from '../lib/stages';

// Every function of the service in one esbuild run: the synth takes a third of the time.
const app = new App({ context: { [BUNDLE_EVERY_HANDLER_CONTEXT]: true } });
// `-c stage=<name>` (lib/stages.ts); without it the local stage, deployed, if at all, where the CLI's credentials point.
const stage = stageOf(app);
new PaymentOpsStack(app, stage.stackName, {
  env: stage.env ?? { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
