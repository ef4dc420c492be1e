import { rmSync } from 'node:fs';
import { contentionStats } from '../../bin/local/contention';

export default async function globalTeardown(): Promise<void> {
  // What the run's contention layer refused: how much the suites contended, as they would in AWS.
  const stats = await contentionStats(process.env.DYNAMODB_ENDPOINT!);
  if (stats) {
    const total = Object.values(stats.conflicts).reduce((sum, count) => sum + count, 0);
    const parts = Object.entries(stats.conflicts).map(([operation, count]) => `${operation} ${count}`);
    process.stdout.write(`DynamoDB contention layer: ${total} conflicts${parts.length ? ` (${parts.join(', ')})` : ''} in ${stats.transactions} transactions held ${stats.holdMs} ms\n`);
  }
  await (globalThis as { __dynamo?: { stop(): Promise<void> } }).__dynamo?.stop();
  const sourceTemplate = (globalThis as { __sourceTemplate?: string }).__sourceTemplate;
  if (sourceTemplate) rmSync(sourceTemplate, { recursive: true, force: true });
}
