import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

type Item = Record<string, unknown>;

/**
 * Every item of a small partition (subscriptions of an org, pending local deliveries), page by
 * page (from the input's ExclusiveStartKey, when it has one); with `max`, no more than that many
 * (the last Query asks only for what is missing): DynamoDB stops a Query at 1 MB read, and this
 * reads on.
 */
export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput, max = Infinity): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined = input.ExclusiveStartKey;
  do {
    const missing = max - items.length;
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start, ...(Number.isFinite(missing) ? { Limit: missing } : {}) }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && items.length < max);
  return items;
}

/**
 * The first `max` items of a list spread over sub-partitions (`partitions`, product-decisions
 * §2): one Query per partition, all at once, each read on (`queryAll`) until it holds `max` items
 * or ends, merged in the order of `sortKey` (ascending or not, as the Queries read). With one
 * partition, that one Query.
 */
export async function queryMerged(
  db: DynamoDBDocumentClient,
  partitions: readonly string[],
  query: (partition: string) => QueryCommandInput,
  options: { sortKey: string; max?: number },
): Promise<Item[]> {
  const inputs = partitions.map(query);
  const read = await Promise.all(inputs.map((input) => queryAll(db, input, options.max)));
  if (read.length === 1) return read[0];
  const ascending = inputs[0].ScanIndexForward !== false;
  const key = (item: Item) => String(item[options.sortKey]);
  const merged = read.flat().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (ascending ? 1 : -1));
  return options.max === undefined ? merged : merged.slice(0, options.max);
}
