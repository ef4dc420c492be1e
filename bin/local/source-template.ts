import { App } from 'aws-cdk-lib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PaymentOpsStack } from '../../lib/payment-ops-stack';
import { stageOf } from '../../lib/stages';

/**
 * Source mode's cloud assembly in `outdir`: the stack as `cdk synth` builds it (cdk.json's
 * context), with the nested stacks' asset metadata that artifact mode reads, but without
 * bundling: each function names its handler module instead (`payment-ops:source-entry`). Takes
 * a few seconds, where bundling 88 functions takes a minute.
 */
export function synthesizeForSources(outdir: string): string {
  const { context } = JSON.parse(readFileSync(join(__dirname, '../../cdk.json'), 'utf8')) as { context: Record<string, unknown> };
  // Without aws-cdk-lib's built-in CloudFormation validation: it only warns, into an assembly
  // nobody reads here, and costs seconds of CPU per start (`cdk synth` still runs it).
  const app = new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [], 'aws:cdk:enable-asset-metadata': true }, builtinCloudFormationValidation: false });
  // The local stage: `npm start` and the tests run what `cdk synth` without `-c stage` builds.
  new PaymentOpsStack(app, stageOf(app).stackName, {});
  app.synth();
  return outdir;
}
