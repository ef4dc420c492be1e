import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mappingCheckpoints } from '../../../bin/local/table-stream';

describe('stream readers sharing the data folder keep their own places', () => {
  let dataDir: string;
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'checkpoints-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  test("a reader's save never puts back another reader's older place", async () => {
    // Prepare: the outbox reader has saved; the notifications reader starts after it.
    const outbox = mappingCheckpoints(dataDir, 'table#outbox');
    await outbox.save('shard-1', { sequenceNumber: '1', closed: false });
    const notifications = mappingCheckpoints(dataDir, 'table#notifications');
    // Act: the outbox reader moves on, then the notifications reader saves its own place.
    await outbox.save('shard-1', { sequenceNumber: '2', closed: false });
    await notifications.save('shard-1', { sequenceNumber: '9', closed: false });
    // Assess: after a restart each reader resumes from its own latest place.
    expect(await mappingCheckpoints(dataDir, 'table#outbox').load('shard-1')).toEqual({ sequenceNumber: '2', closed: false });
    expect(await mappingCheckpoints(dataDir, 'table#notifications').load('shard-1')).toEqual({ sequenceNumber: '9', closed: false });
  });

  test('in memory, nothing outlives the reader', async () => {
    await mappingCheckpoints(':memory:', 'table#outbox').save('shard-1', { sequenceNumber: '3', closed: false });
    expect(await mappingCheckpoints(':memory:', 'table#outbox').load('shard-1')).toBeUndefined();
  });
});
