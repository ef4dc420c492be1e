import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { PaidAmount, PaidPayments } from '../domain/dashboard';
import * as keys from './keys';
import { scopeOf } from './entities';
import { queryMerged } from './query-all';
import { INDEXES } from './table';

/** Reads only the dashboard makes: the chart's paid payments. */
export function createDashboardReads(db: DynamoDBDocumentClient, tableName: string) {
  const paidPayments: PaidPayments = {
    /**
     * The scope's `paid` list (GSI2 `{scope}#PAY#paid`, sorted by id, so by creation time) from
     * `sinceId` on, newest first, only the four attributes the chart needs (its id is its sort
     * key): one Query per sub-partition, at once, each read on past each 1 MB page until `max`
     * items or the bound, merged.
     */
    async paidSince(principal, sinceId, max) {
      const items = await queryMerged(
        db,
        keys.paymentStatusList(scopeOf(principal.orgId, principal.mode), 'paid'),
        (partition) => ({
          TableName: tableName,
          IndexName: INDEXES.gsi2.name,
          KeyConditionExpression: '#pk = :pk AND #sk >= :since',
          ExpressionAttributeNames: { '#pk': INDEXES.gsi2.pk, '#sk': INDEXES.gsi2.sk, '#id': 'id', '#amount': 'amountMinor', '#currency': 'currency', '#paidAt': 'paidAt' },
          ExpressionAttributeValues: { ':pk': partition, ':since': sinceId },
          ProjectionExpression: '#id, #amount, #currency, #paidAt',
          ScanIndexForward: false,
        }),
        { sortKey: 'id', max: max + 1 },
      );
      const payments = items as unknown as PaidAmount[];
      return { payments: payments.slice(0, max), complete: payments.length <= max };
    },
  };

  return { paidPayments };
}
