import { createKeyedLock } from '../../../shared/keyed-lock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('keyed lock: one task per key at a time, a waiter never past its start-by time', () => {
  test('tasks of one key run one after another, other keys in parallel', async () => {
    const withLock = createKeyedLock();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await sleep(ms);
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([withLock('a', task('a1', 30)), withLock('a', task('a2', 1)), withLock('b', task('b1', 1))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 end')).toBeLessThan(log.indexOf('a1 end'));
  });

  test('a waiter whose turn has not come by its start-by time gets tooLate() and its task never runs; the queue goes on', async () => {
    const withLock = createKeyedLock();
    const ran: string[] = [];
    const holder = withLock('link', async () => {
      await sleep(150);
      ran.push('holder');
    });
    const startedWaiting = Date.now();
    const late = withLock('link', async () => ran.push('late'), Date.now() + 30, () => new Error('busy, retry'));
    await expect(late).rejects.toThrow('busy, retry');
    expect(Date.now() - startedWaiting).toBeLessThan(120);
    // Behind the abandoned waiter, the next one still waits for the holder, then runs.
    const next = withLock('link', async () => ran.push('next'));
    await Promise.all([holder, next]);
    expect(ran).toEqual(['holder', 'next']);
  });

  test('a task that started in time is not abandoned when its start-by time passes while it runs', async () => {
    const withLock = createKeyedLock();
    await expect(
      withLock(
        'link',
        async () => {
          await sleep(60);
          return 'done';
        },
        Date.now() + 10,
      ),
    ).resolves.toBe('done');
  });
});
