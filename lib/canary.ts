import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Alias, type Function as LambdaFunction, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { runbookOf, stageOf } from './stages';

/** The alias every caller of a money path invokes; CodeDeploy moves it from version to version. */
export const LIVE_ALIAS = 'live';

/** How a money path's new version takes traffic: 10 % for 5 minutes, then all of it. */
export const CANARY_CONFIG = LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES;

/**
 * A money path (its declaration says `canary`: checkout submit, notification processing, the
 * outbox processor) as its callers are to invoke it. In a stage with `canary` (lib/stages.ts),
 * the function's alias `live`, which CodeDeploy shifts to each new version gradually
 * (CANARY_CONFIG) and back to the previous one, automatically, when the alias's errors alarm
 * (any error, in a minute) goes off meanwhile or the deployment fails: the caller (the route's
 * integration, the stream's mapping) is given the alias. Elsewhere the function itself, deployed
 * at once.
 */
export function invokedThroughCanary(scope: Construct, fn: LambdaFunction, declared: boolean | undefined): IFunction {
  if (!declared || !stageOf(scope).canary) return fn;
  const name = fn.node.scope!.node.id;
  const alias = new Alias(scope, `${name}LiveAlias`, { aliasName: LIVE_ALIAS, version: fn.currentVersion });
  // Every alarm in the stack pages the stage's topic (lib/monitoring.ts); this one also stops the deployment.
  const errors = new Alarm(scope, `${name}CanaryErrors`, {
    alarmDescription: `Errors of ${name} through its alias ${LIVE_ALIAS} while a deployment shifts it: CodeDeploy rolls back to the previous version. ${runbookOf('CanaryErrors')}`,
    metric: alias.metricErrors({ period: Duration.minutes(1), statistic: 'Sum' }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  const group = new LambdaDeploymentGroup(scope, `${name}Deployment`, {
    alias,
    deploymentConfig: CANARY_CONFIG,
    alarms: [errors],
    autoRollback: { failedDeployment: true, deploymentInAlarm: true, stoppedDeployment: true },
  });
  NagSuppressions.addResourceSuppressions(
    group.role,
    [
      {
        id: 'AwsSolutions-IAM4',
        reason:
          'CodeDeploy service role of a Lambda deployment group: AWSCodeDeployRoleForLambdaLimited, AWS\'s policy for it (read the alarms, get and update aliases, publish to CodeDeployTopic_* topics, invoke CodeDeployHook_* functions); the group updates this one alias.',
        appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited'],
      },
    ],
    true,
  );
  return alias;
}
