/**
 * The single table's physical design, shared by the CDK stack and the local stack so that
 * both create exactly the same thing. The logical design (which item lives where and which
 * Query serves which access pattern) is documented in docs/architecture.md and encoded in
 * `keys.ts`.
 */
export const KEY = { pk: 'PK', sk: 'SK' } as const;

/** Overloaded global secondary indexes; every one projects ALL attributes. */
export const INDEXES = {
  /** Newest-first lists of a scope: `{org}#{mode}#{TYPE}` -> id. */
  gsi1: { name: 'GSI1', pk: 'GSI1PK', sk: 'GSI1SK' },
  /** Filtered lists (status, type, acceptor) and per-parent sub-lists. */
  gsi2: { name: 'GSI2', pk: 'GSI2PK', sk: 'GSI2SK' },
  /** Lookups by an alternative key (settlement code, key id), a second sub-list, event-type prefixes. */
  gsi3: { name: 'GSI3', pk: 'GSI3PK', sk: 'GSI3SK' },
  /**
   * Deeper event-type prefixes (`a.b.*`, `a.b.c.*`): one index per depth, as an item has one key
   * per index; the further filtered lists of entities whose first indexes are taken (a payment's
   * customer email, a chargeback's status).
   */
  gsi4: { name: 'GSI4', pk: 'GSI4PK', sk: 'GSI4SK' },
  gsi5: { name: 'GSI5', pk: 'GSI5PK', sk: 'GSI5SK' },
  /** A second filtered list of one entity (an acceptor's chargebacks of one status). */
  gsi6: { name: 'GSI6', pk: 'GSI6PK', sk: 'GSI6SK' },
  /** Sparse: only items with something due (link expiry, chargeback deadline, held refund). */
  due: { name: 'DUE', pk: 'DUEPK', sk: 'DUESK' },
} as const;

export type IndexName = keyof typeof INDEXES;

/** Items with this attribute (epoch seconds) are deleted by DynamoDB TTL. */
export const TTL_ATTRIBUTE = 'expiresAtEpoch';

export function tableDefinition(tableName: string) {
  const indexes = Object.values(INDEXES);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [
      { AttributeName: KEY.pk, AttributeType: 'S' as const },
      { AttributeName: KEY.sk, AttributeType: 'S' as const },
      ...indexes.flatMap((index) => [
        { AttributeName: index.pk, AttributeType: 'S' as const },
        { AttributeName: index.sk, AttributeType: 'S' as const },
      ]),
    ],
    KeySchema: [
      { AttributeName: KEY.pk, KeyType: 'HASH' as const },
      { AttributeName: KEY.sk, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.pk, KeyType: 'HASH' as const },
        { AttributeName: index.sk, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' as const },
  };
}
