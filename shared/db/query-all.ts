import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/**
 * Every item of a small partition (subscriptions of an org, pending local deliveries), page by
 * page; with `max`, no more than that many (the last Query asks only for what is missing).
 */
export async function queryAll(db: DynamoDBDocumentClient, input: QueryCommandInput, max = Infinity): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const missing = max - items.length;
    const page = await db.send(new QueryCommand({ ...input, ExclusiveStartKey: start, ...(Number.isFinite(missing) ? { Limit: missing } : {}) }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && items.length < max);
  return items;
}
