import { randomUUID } from 'node:crypto';
import { createDocumentClient } from '../../../shared/db/client';
import { createAttemptWindows } from '../../../shared/db/rate-limit';
import type { AttemptRefusal, AttemptSlot } from '../../../shared/domain/team';
import { ensureTable } from '../../../bin/local/dynamodb-local';

/** The sign-in lockouts' attempt windows against DynamoDB Local: slots taken before a password is checked. */
const tableName = `test-${randomUUID()}`;
const db = createDocumentClient();
let clock = 1_700_000_000_000;
const windows = () => createAttemptWindows(db, tableName, () => clock);
const WINDOW = 900;
const isSlot = (taken: AttemptSlot | AttemptRefusal): taken is AttemptSlot => 'failed' in taken;
/** When a refusal says to come back, without its count. */
const retryAfter = (taken: AttemptSlot | AttemptRefusal) => (isSlot(taken) ? 'a slot' : { retryAfterSeconds: taken.retryAfterSeconds });

beforeAll(() => ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName));

describe('Function: createAttemptWindows', () => {
  test('concurrent takers across processes never hold more than the limit; the others learn when to come back, each refusal counted once', async () => {
    // Prepare
    const subject = `email:${randomUUID()}`;
    // Act: twenty processes, nothing shared but the table
    const taken = await Promise.all(Array.from({ length: 20 }, () => windows().take(subject, 5, WINDOW)));
    // Assess
    expect(taken.filter(isSlot)).toHaveLength(5);
    const refused = taken.filter((answer): answer is AttemptRefusal => !isSlot(answer));
    expect(refused.map(retryAfter)).toEqual(Array.from({ length: 15 }, () => ({ retryAfterSeconds: WINDOW })));
    expect(refused.map((refusal) => refusal.refusals).sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));
  });

  test("a lock's refusals are counted on its window, and a fresh window counts from none", async () => {
    const subject = `email:${randomUUID()}`;
    await ((await windows().take(subject, 1, WINDOW)) as AttemptSlot).failed();
    expect(await windows().take(subject, 1, WINDOW)).toEqual({ retryAfterSeconds: WINDOW, refusals: 1 });
    expect(await windows().take(subject, 1, WINDOW)).toEqual({ retryAfterSeconds: WINDOW, refusals: 2 });
    clock += WINDOW * 1000;
    await ((await windows().take(subject, 1, WINDOW)) as AttemptSlot).failed();
    expect(await windows().take(subject, 1, WINDOW)).toEqual({ retryAfterSeconds: WINDOW, refusals: 1 });
  });

  test('a success gives its slot back; a failure keeps it', async () => {
    const subject = `email:${randomUUID()}`;
    const slots = (await Promise.all(Array.from({ length: 5 }, () => windows().take(subject, 5, WINDOW)))).filter(isSlot);
    await slots[0].succeeded();
    await Promise.all(slots.slice(1).map((slot) => slot.failed()));
    const again = await windows().take(subject, 5, WINDOW);
    expect(isSlot(again)).toBe(true);
    expect(retryAfter(await windows().take(subject, 5, WINDOW))).toEqual({ retryAfterSeconds: WINDOW });
  });

  test('the failure that fills the window locks the subject for a whole window from that failure', async () => {
    const subject = `address:${randomUUID()}`;
    const first = await windows().take(subject, 2, WINDOW);
    await (first as AttemptSlot).failed();
    clock += 600_000; // ten minutes on, the window has five left
    const second = await windows().take(subject, 2, WINDOW);
    await (second as AttemptSlot).failed();
    expect(retryAfter(await windows().take(subject, 2, WINDOW))).toEqual({ retryAfterSeconds: WINDOW });
    clock += 600_000; // past the window that opened with the first failure: still locked
    expect(retryAfter(await windows().take(subject, 2, WINDOW))).toEqual({ retryAfterSeconds: 300 });
    clock += 300_000;
    expect(isSlot(await windows().take(subject, 2, WINDOW))).toBe(true);
  });

  test('a window that ended without filling is replaced by a fresh one; a late success of the old one gives nothing back to it', async () => {
    const subject = `email:${randomUUID()}`;
    const old = (await windows().take(subject, 3, WINDOW)) as AttemptSlot;
    await ((await windows().take(subject, 3, WINDOW)) as AttemptSlot).failed();
    clock += WINDOW * 1000;
    const fresh = await Promise.all([windows().take(subject, 3, WINDOW), windows().take(subject, 3, WINDOW), windows().take(subject, 3, WINDOW)]);
    expect(fresh.every(isSlot)).toBe(true);
    await old.succeeded();
    expect(retryAfter(await windows().take(subject, 3, WINDOW))).toEqual({ retryAfterSeconds: WINDOW });
  });
});
