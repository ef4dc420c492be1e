/**
 * What the local AWS counts for `npm run bench:cost`: the requests AWS bills by request, API
 * Gateway's (one per route invocation), EventBridge's events (PutEvents entries) and SQS's (a
 * send or a send batch, a receive that found messages, a delete batch, a visibility change); and
 * each function's calls to AWS by operation (in artifact mode, where they pass the edge), which
 * an invocation waits for. Lambda's own usage is each pool's stats; DynamoDB's, the contention
 * layer's units.
 */
export interface Usage {
  apiRequests: number;
  eventBridgeEvents: number;
  sqsRequests: number;
  /** Per function name, per call (`DynamoDB_20120810.TransactWriteItems`): how many. */
  calls: Record<string, Record<string, number>>;
}

export const newUsage = (): Usage => ({ apiRequests: 0, eventBridgeEvents: 0, sqsRequests: 0, calls: {} });

export function countCall(usage: Usage, functionName: string, target: string): void {
  const calls = (usage.calls[functionName] ??= {});
  calls[target] = (calls[target] ?? 0) + 1;
}
