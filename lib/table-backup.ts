import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { BackupPlan, BackupPlanRule, BackupResource, BackupVault } from 'aws-cdk-lib/aws-backup';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Schedule } from 'aws-cdk-lib/aws-events';
import { Key } from 'aws-cdk-lib/aws-kms';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { Stage } from './stages';

/**
 * AWS Backup of the table (lib/stages.ts `backup`), besides its point-in-time recovery (any
 * second of the last 35 days): a backup every night kept `dailyRetentionDays`, and one on the
 * first of each month kept `monthlyRetentionDays`, in a vault of the stage encrypted with a key
 * of its own; both retained when the stack is deleted. Restoring is docs/operations.md's
 * "Backup and restore".
 */
export class TableBackup extends Construct {
  readonly vault: BackupVault;
  readonly plan: BackupPlan;

  constructor(scope: Construct, id: string, props: { table: ITable; retention: NonNullable<Stage['backup']> }) {
    super(scope, id);
    const key = new Key(this, 'VaultKey', { description: 'Encrypts the table backups of the stage', enableKeyRotation: true, removalPolicy: RemovalPolicy.RETAIN });
    this.vault = new BackupVault(this, 'Vault', { encryptionKey: key, removalPolicy: RemovalPolicy.RETAIN });
    this.plan = new BackupPlan(this, 'Plan', { backupVault: this.vault });
    this.plan.addRule(
      new BackupPlanRule({ ruleName: 'Daily', scheduleExpression: Schedule.cron({ hour: '3', minute: '0' }), deleteAfter: Duration.days(props.retention.dailyRetentionDays) }),
    );
    if (props.retention.monthlyRetentionDays) {
      this.plan.addRule(
        new BackupPlanRule({ ruleName: 'Monthly', scheduleExpression: Schedule.cron({ day: '1', hour: '4', minute: '0' }), deleteAfter: Duration.days(props.retention.monthlyRetentionDays) }),
      );
    }
    const selection = this.plan.addSelection('Table', { resources: [BackupResource.fromDynamoDbTable(props.table)] });
    NagSuppressions.addResourceSuppressions(
      selection,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason:
            "The role AWS Backup assumes for this plan: AWSBackupServiceRolePolicyForBackup is AWS's policy for that service, written for every resource type it backs up; AWS Backup uses it only on what the plan selects, the table.",
          appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup'],
        },
      ],
      true,
    );
  }
}
