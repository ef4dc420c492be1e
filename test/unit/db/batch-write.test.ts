import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { batchWriteAll, type WriteRequest } from '../../../shared/db/batch';

// DynamoDB Local never throttles, so unprocessed items are covered with a mocked client.
const dynamo = mockClient(DynamoDBDocumentClient);
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
afterEach(() => dynamo.reset());

const puts = (n: number): WriteRequest[] => Array.from({ length: n }, (_, i) => ({ PutRequest: { Item: { PK: `K#${i}`, SK: 'S' } } }));
const sentBatches = () => dynamo.commandCalls(BatchWriteCommand).map((call) => call.args[0].input.RequestItems!.t);

test('batch write: chunks of 25, unprocessed items are sent again until written', async () => {
  const requests = puts(60);
  dynamo
    .on(BatchWriteCommand)
    .resolvesOnce({ UnprocessedItems: { t: requests.slice(3, 5) } })
    .resolves({ UnprocessedItems: {} });
  await batchWriteAll(db, 't', requests, { concurrency: 1, backoffMs: 0 });
  const batches = sentBatches();
  expect(batches.map((batch) => batch.length)).toEqual([25, 2, 25, 10]);
  expect(batches[1]).toEqual(requests.slice(3, 5));
  expect(batches.flat().length).toBe(62);
});

test('batch write: items still unprocessed after the last attempt -> error', async () => {
  const requests = puts(3);
  dynamo.on(BatchWriteCommand).resolves({ UnprocessedItems: { t: requests.slice(0, 1) } });
  await expect(batchWriteAll(db, 't', requests, { maxAttempts: 3, backoffMs: 0 })).rejects.toThrow(/unprocessed after 3 attempts/);
  expect(sentBatches().map((batch) => batch.length)).toEqual([3, 1, 1]);
});

test('batch write: nothing to write sends nothing', async () => {
  await batchWriteAll(db, 't', []);
  expect(sentBatches()).toEqual([]);
});
