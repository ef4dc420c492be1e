import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DisputeDocument } from '../domain/dispute-documents';
import { isId } from '../ids';
import { IF_NEW, stripKeys } from './entity';
import { disputeDocumentEntity } from './entities';
import * as keys from './keys';
import { transactWrite } from './side-effects';

/** Evidence documents, each under its chargeback (shared/db/entities.ts). */
export function createDisputeDocumentRepository(db: DynamoDBDocumentClient, tableName: string) {
  return {
    /** Puts a new document; a transaction, so that its audit record rides it (shared/db/audit-trail.ts). */
    async create(document: DisputeDocument): Promise<void> {
      await transactWrite(db, [{ Put: { TableName: tableName, Item: disputeDocumentEntity.item(document), ...IF_NEW } }]);
    },

    /** The document `id` of this chargeback; undefined for any other id (another chargeback's, malformed, unknown). */
    async get(chargebackId: string, id: string): Promise<DisputeDocument | undefined> {
      if (!isId('disputeDocument', id)) return undefined;
      const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.disputeDocument(chargebackId, id), ConsistentRead: true }));
      return stripKeys<DisputeDocument>(result.Item);
    },
  };
}

export type DisputeDocumentRepository = ReturnType<typeof createDisputeDocumentRepository>;
