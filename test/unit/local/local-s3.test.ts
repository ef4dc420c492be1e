import { startLocalS3, type LocalS3 } from '../../../bin/local/s3';
import { AWS_LIMITS } from '../../../shared/aws-limits';

/**
 * The local S3 completes a multipart upload as S3 does (docs/decisions.md 151): every part but
 * the last at least 5 MiB, in ascending order, each the one uploaded (its ETag). Its own store,
 * unsigned (the edge in front of it checks who calls; this is what it then stores).
 */
let s3: LocalS3;
const BUCKET = 'reports-test';

beforeAll(async () => {
  s3 = await startLocalS3({ dataDir: ':memory:' });
  await s3.createBucket(BUCKET);
});
afterAll(() => s3.stop());

async function upload(key: string, parts: Buffer[], order?: (parts: { PartNumber: number; ETag: string }[]) => { PartNumber: number; ETag: string }[]) {
  const url = `${s3.url}/${BUCKET}/${key}`;
  const started = await (await fetch(`${url}?uploads`, { method: 'POST' })).text();
  const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(started)![1];
  const uploaded: { PartNumber: number; ETag: string }[] = [];
  for (const [index, body] of parts.entries()) {
    const answer = await fetch(`${url}?partNumber=${index + 1}&uploadId=${uploadId}`, { method: 'PUT', body: new Uint8Array(body) });
    expect(answer.status).toBe(200);
    uploaded.push({ PartNumber: index + 1, ETag: answer.headers.get('etag')! });
  }
  const listed = (order ?? ((each) => each))(uploaded);
  const xml = `<CompleteMultipartUpload>${listed.map((part) => `<Part><PartNumber>${part.PartNumber}</PartNumber><ETag>${part.ETag}</ETag></Part>`).join('')}</CompleteMultipartUpload>`;
  const completed = await fetch(`${url}?uploadId=${uploadId}`, { method: 'POST', body: xml, headers: { 'content-type': 'application/xml' } });
  return { status: completed.status, text: await completed.text() };
}

const bytes = (size: number, fill = 'a') => Buffer.alloc(size, fill);

test('parts of 5 MiB and a smaller last one make the object, in order', async () => {
  const completed = await upload('whole.csv', [bytes(AWS_LIMITS.s3.minPartBytes, 'a'), bytes(10, 'b')]);
  expect(completed.status).toBe(200);
  const object = Buffer.from(await (await fetch(`${s3.url}/${BUCKET}/whole.csv`)).arrayBuffer());
  expect(object.length).toBe(AWS_LIMITS.s3.minPartBytes + 10);
  expect(object.subarray(-10).toString()).toBe('bbbbbbbbbb');
});

test('a part under 5 MiB but the last: EntityTooSmall (400), no object', async () => {
  const completed = await upload('small.csv', [bytes(AWS_LIMITS.s3.minPartBytes - 1), bytes(10)]);
  expect(completed.status).toBe(400);
  expect(completed.text).toContain('<Code>EntityTooSmall</Code>');
  expect((await fetch(`${s3.url}/${BUCKET}/small.csv`)).status).toBe(404);
});

test('parts out of order: InvalidPartOrder; a part of another ETag: InvalidPart', async () => {
  const reversed = await upload('reversed.csv', [bytes(AWS_LIMITS.s3.minPartBytes), bytes(10)], (parts) => [...parts].reverse());
  expect(reversed.text).toContain('<Code>InvalidPartOrder</Code>');
  const forged = await upload('forged.csv', [bytes(10)], (parts) => parts.map((part) => ({ ...part, ETag: '"00000000000000000000000000000000"' })));
  expect(forged.status).toBe(400);
  expect(forged.text).toContain('<Code>InvalidPart</Code>');
});
