import { loadConfig } from '../../shared/config';
import { createKmsSealer } from '../../shared/crypto/kms-sealer';
import { documentClient } from '../../shared/db/client';
import { createDirectory } from '../../shared/db/directory';
import { chargebackCommands } from './chargeback-commands';
import type { OpsCommand } from './cli';
import { directoryCommands } from './directory-commands';
import { jobCommands } from './job-commands';
import { settlementCommands } from './settlement-commands';
import { webhookCommands } from './webhook-commands';

/**
 * Every `ops` command. Dependencies are created on first use, so `--help` needs no table; the
 * sealer of webhook secrets reads SECRETS_KEY_ARN and the AWS settings when a command seals or
 * opens one.
 */
export function opsCommands(): OpsCommand[] {
  const tableName = loadConfig().tableName;
  const sealer = () => createKmsSealer({ keyArn: loadConfig().secretsKeyArn });
  const directory = () => createDirectory(documentClient(), tableName);
  return [
    ...directoryCommands(directory),
    ...jobCommands(documentClient, tableName),
    ...chargebackCommands(documentClient, tableName),
    ...settlementCommands(documentClient, tableName),
    ...webhookCommands(documentClient, tableName, sealer),
  ];
}
