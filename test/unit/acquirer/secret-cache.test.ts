import { cachedFor } from '../../../shared/services/wiring';

/** The acquirer's secret is read through `cachedFor` (shared/services/acquirer-secret.ts): a credential written into it reaches warm functions within the TTL. */
describe('cachedFor', () => {
  let now = 0;
  const clock = () => now;

  test('the value built first is shared until the TTL has passed, then built again', async () => {
    // Prepare
    let reads = 0;
    const secret = cachedFor(300_000, async () => `value ${++reads}`, clock);
    // Act
    now = 0;
    const first = await secret();
    now = 299_999;
    const warm = await secret();
    now = 300_000;
    const after = await secret();
    // Assess
    expect([first, warm, after]).toEqual(['value 1', 'value 1', 'value 2']);
    expect(reads).toBe(2);
  });

  test('a failed build is forgotten at once: the next call builds again, within the TTL', async () => {
    // Prepare
    let reads = 0;
    const secret = cachedFor(300_000, async () => {
      reads++;
      if (reads === 1) throw new Error('the acquirer secret could not be read: ThrottlingException');
      return 'value';
    }, clock);
    // Act and assess
    now = 0;
    await expect(secret()).rejects.toThrow('ThrottlingException');
    now = 1;
    await expect(secret()).resolves.toBe('value');
    expect(reads).toBe(2);
  });

  test('calls while a build is in flight share it', async () => {
    let reads = 0;
    const secret = cachedFor(300_000, async () => ++reads, clock);
    now = 0;
    expect(await Promise.all([secret(), secret(), secret()])).toEqual([1, 1, 1]);
  });
});
