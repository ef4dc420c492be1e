import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { configureTable } from '../../../bin/local/contention';
import { reportEntity } from '../../../shared/db/entities';
import * as keys from '../../../shared/db/keys';
import { INDEXES } from '../../../shared/db/table';
import { REPORT_BUILD_DEADLINE_MINUTES, REPORT_FAILURE_REASON, type Report } from '../../../shared/domain/reports';
import { newId } from '../../../shared/ids';
import { eventsFor, outboxEvents } from '../../support/events';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';
import { waitUntil } from '../../support/wait';

/**
 * A report its builder never finishes (every asynchronous attempt failed: a timeout, a crash)
 * does not stay pending: the minute job `fail-overdue-reports` fails it once past its build
 * deadline, with its one `transactions.report.failed`, as the builder fails one; a report
 * finished meanwhile is never touched. The jobs' clock is the schedule's: `runMinuteJobs(at)`.
 */
let stack: TestStack;
let merchant: Merchant;
let api: Api;

jest.setTimeout(120_000);

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack.stop());

const DEADLINE_MS = REPORT_BUILD_DEADLINE_MINUTES * 60_000;
const range = () => ({ gte: new Date(Date.now() - 86_400_000).toISOString(), lt: new Date().toISOString() });
const ask = async () => {
  const created = await api.post('/v1/reports', { type: 'refunds', created: range() });
  expect(created.status).toBe(201);
  return created.body as { id: string; created_at: string };
};
const read = async (id: string) => (await api.get(`/v1/reports/${id}`)).body;
const reportEvents = async (type: 'succeeded' | 'failed', id: string) => eventsFor(await outboxEvents(stack, merchant.orgId), `transactions.report.${type}`, id);
/** The builder's invocations that have ended, whatever their outcome. */
const builderInvocations = () => Object.entries(stack.aws.stats()).find(([name]) => name.includes('ReportBuilder'))?.[1].invocations ?? 0;
/** The pending reports' DUE partition, as the job reads it. */
const pendingEntries = async () =>
  (
    await stack.db.send(
      new QueryCommand({
        TableName: stack.tableName,
        IndexName: INDEXES.due.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.due.pk },
        ExpressionAttributeValues: { ':pk': keys.pendingReportsDue },
      }),
    )
  ).Items ?? [];

test('a report whose builder fails every attempt stays pending until its build deadline, then the minute job fails it with failure_reason and one transactions.report.failed', async () => {
  // Prepare: every call of the builder to the table answered 500 (the SDK's attempts spent), so
  // that it can neither read the report nor write its failure: its invocation fails.
  const report = await ask();
  await configureTable(process.env.DYNAMODB_ENDPOINT!, stack.tableName, {
    faults: { seed: 5, rates: { 'dynamodb.internal-error': 1 }, only: { 'dynamodb.internal-error': ['GetItem', 'Query', 'TransactWriteItems'] } },
  });
  const before = builderInvocations();
  try {
    await waitUntil(async () => builderInvocations() > before, 'the builder attempted the report and failed', { timeoutMs: 30_000, intervalMs: 100 });
  } finally {
    await configureTable(process.env.DYNAMODB_ENDPOINT!, stack.tableName, { faults: null });
  }
  expect(await read(report.id)).toMatchObject({ status: 'pending', failure_reason: null });
  const createdAt = Date.parse(report.created_at);

  // Act: the schedule a minute before the deadline (Lambda's later attempts fail as the first: the
  // job's clock stands for them, never a wait of minutes), then just past it, then again.
  await stack.runMinuteJobs(new Date(createdAt + DEADLINE_MS - 60_000));
  const beforeDeadline = await read(report.id);
  await stack.runMinuteJobs(new Date(createdAt + DEADLINE_MS + 1000));
  const afterDeadline = await read(report.id);
  await stack.runMinuteJobs(new Date(createdAt + DEADLINE_MS + 120_000));

  // Assess
  expect(beforeDeadline.status).toBe('pending');
  expect(afterDeadline).toMatchObject({ id: report.id, status: 'failed', failure_reason: REPORT_FAILURE_REASON, row_count: null, url: null, expires_at: null });
  expect(await read(report.id)).toEqual(afterDeadline);
  const failed = await reportEvents('failed', report.id);
  expect(failed).toHaveLength(1);
  expect(failed[0].data).toEqual(afterDeadline);
  expect(await reportEvents('succeeded', report.id)).toEqual([]);
  expect((await pendingEntries()).filter((item) => item.id === report.id)).toEqual([]);
});

test('a report its builder finished leaves the pending reports at once and is never failed by the job, even past its deadline', async () => {
  // Prepare
  const report = await ask();
  await waitUntil(async () => (await read(report.id)).status !== 'pending', 'the report built', { timeoutMs: 60_000, intervalMs: 200 });
  const succeeded = await read(report.id);

  // Act
  await stack.runMinuteJobs(new Date(Date.parse(report.created_at) + 2 * DEADLINE_MS));

  // Assess
  expect(succeeded.status).toBe('succeeded');
  expect({ ...(await read(report.id)), url: null, expires_at: null }).toEqual({ ...succeeded, url: null, expires_at: null });
  expect((await pendingEntries()).filter((item) => item.id === report.id)).toEqual([]);
  expect(await reportEvents('failed', report.id)).toEqual([]);
  expect(await reportEvents('succeeded', report.id)).toHaveLength(1);
});

test('a report that succeeded while the index still listed it as pending is left as it is: the failure is written only while it is pending', async () => {
  // Prepare: a succeeded report whose DUE entry is still there, as an index that lags its table shows it.
  const createdAt = new Date(Date.now() - 2 * DEADLINE_MS).toISOString();
  const pending: Report = { id: newId('report'), orgId: merchant.orgId, mode: 'test', type: 'payments', created: range(), status: 'pending', createdAt };
  const dueKeys = reportEntity.indexKeys('due', pending);
  const succeeded: Report = { ...pending, status: 'succeeded', rowCount: 0, objectKey: `reports/${merchant.orgId}/test/${pending.id}.csv`, completedAt: createdAt };
  await stack.db.send(new PutCommand({ TableName: stack.tableName, Item: { ...reportEntity.item(succeeded), ...dueKeys } }));
  expect((await pendingEntries()).some((item) => item.id === pending.id)).toBe(true);

  // Act
  await stack.runMinuteJobs();

  // Assess
  expect(await read(pending.id)).toMatchObject({ id: pending.id, status: 'succeeded', row_count: 0, failure_reason: null });
  expect(await reportEvents('failed', pending.id)).toEqual([]);
});
