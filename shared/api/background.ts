import type { ReportFileAccess, SealedSecretsAccess, TableAccess } from './operation';

/**
 * A function outside the routes: its folder under functions/ and its table access, which the
 * stack grants exactly as it grants a route's (lib/table-access.ts), and its uses of the
 * secrets key, as a route's (lib/secrets-key.ts).
 */
export interface BackgroundFunction {
  handler: string;
  table: TableAccess;
  /** Seals or opens secrets under the stage's key: it alone is given the key's ARN (SECRETS_KEY_ARN) and those uses of it. */
  sealedSecrets?: readonly SealedSecretsAccess[];
  /** A money path, deployed as a canary where the stage has them (lib/canary.ts). */
  canary?: boolean;
  /** Report files, under their prefix of the documents' bucket (lib/documents.ts). */
  reportFiles?: ReportFileAccess;
}

/** The functions no route invokes, each with the table access its use cases need. */
export const backgroundFunctions = {
  /** The schedule's jobs; a capture or cancel the acquirer took is owed no more: its item is deleted. */
  minuteJobs: { handler: 'run-jobs', table: { level: 'write', also: ['DeleteItem'] } },
  /** Events to the bus, pending credits into balances, held refunds covered (the table stream). */
  outboxProcessor: { handler: 'process-outbox', table: 'write', canary: true },
  /** Each notification applied once; the captures and cancels it settles or sends are deleted once done. */
  acquirerNotificationProcessor: { handler: 'process-acquirer-notifications', table: { level: 'write', also: ['DeleteItem'] }, canary: true },
  /**
   * Subscriptions, attempt slots, attempts and outcomes: all by key or in the table's own
   * partitions, never an index. It opens the signing secrets to sign, and seals the per-object
   * URLs' secret it creates on first use.
   */
  webhookDeliverer: { handler: 'deliver-webhooks', table: { level: 'write', indexes: false }, sealedSecrets: ['seal', 'open'] },
  /** The acquirer's chargeback feed (`ops chargeback ingest`'s document). */
  chargebackFeed: { handler: 'ingest-chargebacks', table: 'write' },
  /** The acquirer's settlement feed: a settlement's records written, and a replaced import's removed, in batches. */
  settlementImport: { handler: 'import-settlements', table: { level: 'write', also: ['BatchWriteItem'] } },
  /** A report's file from its list's rows (the lists' Queries), then its outcome and event (an UpdateItem and a Put in one transaction). */
  reportBuilder: { handler: 'build-reports', table: 'write', reportFiles: 'write' },
} as const satisfies Record<string, BackgroundFunction>;
