import { Names, Stack, type CfnResource } from 'aws-cdk-lib';
import type { RegexAppliesTo } from 'cdk-nag';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * The `appliesTo` of a suppression of the finding `Resource::<ARN of resource><suffix>`
 * (`/index/*`): cdk-nag names the ARN `<LogicalId.Arn>`, or, for a policy in a nested stack once
 * CDK has passed the ARN in as a parameter (a second synth of the same app, as tests make),
 * `<referenceto<the resource's unique id>Arn>`. Exactly these two, nothing looser.
 */
export function resourceFinding(resource: CfnResource, suffix: string): RegexAppliesTo {
  const arn = `${escape(Stack.of(resource).getLogicalId(resource))}\\.Arn|referenceto${escape(Names.nodeUniqueId(resource.node))}Arn`;
  return { regex: `/^Resource::<(?:${arn})>${escape(suffix)}$/` };
}
