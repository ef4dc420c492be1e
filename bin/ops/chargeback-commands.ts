import { readFile } from 'node:fs/promises';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { configuredUrls } from '../../shared/config';
import { createServices } from '../../shared/services';
import { UsageError, type OpsCommand } from './cli';

/** `chargeback ingest --file F.json`: the acquirer feed for live mode (product-decisions §7, §11). */
export function chargebackCommands(db: () => DynamoDBDocumentClient, tableName: string): OpsCommand[] {
  return [
    {
      words: 'chargeback ingest',
      usage: '--file F.json   ({"chargebacks": [{payment_id, reason, amount, deadline_at?}]}, live payments only)',
      options: { file: { type: 'string', required: true } },
      run: async ({ file }) => {
        let document: unknown;
        try {
          document = JSON.parse(await readFile(String(file), 'utf8'));
        } catch (error) {
          throw new UsageError(`Cannot read ${String(file)} as JSON: ${(error as Error).message}`);
        }
        return createServices(db(), tableName).chargebacks.ingest(document, configuredUrls());
      },
    },
  ];
}
