import { App, Aspects, NestedStack } from 'aws-cdk-lib';
import { Annotations, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PaymentOpsStack } from '../../../lib/payment-ops-stack';
import { STAGE_CONTEXT, stageNamed, type Stage, type StageName } from '../../../lib/stages';
import { flattenNestedStacks, type CfnTemplate } from '../../../bin/local/aws/template';

/** One stage's stack as `cdk synth -c stage=<name>` builds it, bundling skipped, read for assertions. */
export interface SynthesizedStage {
  stage: Stage;
  stack: PaymentOpsStack;
  /** The parent's template. */
  parent: CfnTemplate;
  /** Each nested stack and its template, by the logical id of its AWS::CloudFormation::Stack resource. */
  nested: Map<string, { stack: NestedStack; template: CfnTemplate }>;
  /** The parent with its nested stacks read in, as artifact mode reads them (a nested resource's id after its stack's). */
  template: Template;
  /** What cdk-nag (AwsSolutions) reported on the stack and its nested stacks. */
  annotations: Annotations;
  /** A flattened logical id without its nested stack's: the id within its own template. */
  ownId(id: string): string;
}

/** Synthesizes a stage as the app does (its stack name and environment, cdk-nag), without building any function; `context` as `cdk synth -c` adds it. */
export function synthesizeStage(name: StageName, context: Record<string, string> = {}): SynthesizedStage {
  const stage = stageNamed(name);
  // aws-cdk-lib's built-in CloudFormation validation only warns (cdk.json does not set
  // validateAgainstDefaultRules) and costs seconds of CPU per synth; cfn-lint checks these templates.
  const app = new App({ context: { ...context, 'aws:cdk:bundling-stacks': [], [STAGE_CONTEXT]: name }, builtinCloudFormationValidation: false });
  const stack = new PaymentOpsStack(app, stage.stackName, { env: stage.env });
  Aspects.of(stack).add(new AwsSolutionsChecks());
  // The app's one synth (Annotations forces one on each call; the templates read the app's last).
  const annotations = Annotations.fromStack(stack);
  const parent = Template.fromStack(stack).toJSON() as CfnTemplate;
  const nested = new Map<string, { stack: NestedStack; template: CfnTemplate }>();
  for (const child of stack.node.findAll().filter((construct) => NestedStack.isNestedStack(construct))) {
    nested.set(stack.getLogicalId(child.nestedStackResource!), { stack: child, template: Template.fromStack(child).toJSON() as CfnTemplate });
  }
  const flattened = flattenNestedStacks(parent, stage.stackName, (logicalId) => nested.get(logicalId)!.template);
  const template = Template.fromJSON({
    Resources: flattened.resources,
    Outputs: Object.fromEntries(Object.entries(flattened.outputs).map(([output, value]) => [output, { Value: value }])),
  });
  const ownId = (id: string) => id.slice([...nested.keys()].find((stackId) => id.startsWith(stackId))?.length ?? 0);
  return { stage, stack, parent, nested, template, annotations, ownId };
}
