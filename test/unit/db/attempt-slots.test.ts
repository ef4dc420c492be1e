import { randomUUID } from 'node:crypto';
import { createAttemptSlots } from '../../../shared/db/attempt-slots';
import { createDocumentClient } from '../../../shared/db/client';
import { ensureTable } from '../../../bin/local/dynamodb-local';

/** Attempt slots against DynamoDB Local: leases in the table, shared by whoever delivers. */
const tableName = `test-${randomUUID()}`;
const db = createDocumentClient();
let clock = 1_000_000;
const slots = () => createAttemptSlots(db, tableName, 2, () => clock);

beforeAll(() => ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName));

test('a tenant holds at most its slots; giving one back frees it; other tenants are not counted', async () => {
  const [a, b] = [slots(), slots()]; // two processes: nothing shared but the table
  const first = await a.take('org_1#live', 15_000);
  const second = await b.take('org_1#live', 15_000);
  expect([first, second].every((release) => typeof release === 'function')).toBe(true);
  expect(await a.take('org_1#live', 15_000)).toBeUndefined();
  expect(await b.take('org_1#test', 15_000)).toEqual(expect.any(Function));

  await first!();
  await first!(); // giving back twice is harmless
  const third = await b.take('org_1#live', 15_000);
  expect(third).toEqual(expect.any(Function));
  expect(await a.take('org_1#live', 15_000)).toBeUndefined();
});

test('a slot whose holder died frees itself when its lease ends, and the late holder cannot end the new lease', async () => {
  const died = await slots().take('org_2#live', 10_000);
  await slots().take('org_2#live', 60_000);
  expect(await slots().take('org_2#live', 10_000)).toBeUndefined();
  clock += 10_000;
  const taker = await slots().take('org_2#live', 10_000);
  expect(taker).toEqual(expect.any(Function));
  await died!(); // the dead holder comes back late: the slot is someone else's now
  expect(await slots().take('org_2#live', 10_000)).toBeUndefined();
});

test('every slot taken under a second ago: a taker waits for one to come free, and gets it', async () => {
  // Prepare: both slots of the tenant just taken
  const [first] = await Promise.all([slots().take('org_4#live', 15_000), slots().take('org_4#live', 15_000)]);

  // Act: a third taker, and the first attempt ending meanwhile
  const waiting = slots().take('org_4#live', 15_000);
  await new Promise((resolve) => setTimeout(resolve, 120));
  await first!();

  // Assess
  expect(await waiting).toEqual(expect.any(Function));
});

test('a taker that saw a slot free and lost it to another waits for the next one, as for any slot just taken', async () => {
  // Prepare: a taker whose look finds both slots free, and whose writes go out only once two others took them
  let looked!: () => void;
  let othersTook!: () => void;
  const [lookDone, othersDone] = [new Promise<void>((resolve) => (looked = resolve)), new Promise<void>((resolve) => (othersTook = resolve))];
  const late = createDocumentClient();
  late.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'PutItemCommand') await othersDone;
      const result = await next(args);
      if (context.commandName === 'QueryCommand') looked();
      return result;
    },
    { step: 'initialize' },
  );
  const lateTaker = createAttemptSlots(late, tableName, 2, () => clock).take('org_6#live', 15_000);
  await lookDone;
  const others = await Promise.all([slots().take('org_6#live', 15_000), slots().take('org_6#live', 15_000)]);
  expect(others).toEqual([expect.any(Function), expect.any(Function)]); // both slots went to them, after the late taker's look
  const [first] = others;
  othersTook();

  // Act: the first attempt ends meanwhile
  await new Promise((resolve) => setTimeout(resolve, 120));
  await first!();

  // Assess: the late taker waited and got the slot given back
  expect(await lateTaker).toEqual(expect.any(Function));
});

test("a PutItem the SDK retried after its first try took the slot: that slot is the taker's, and no other is taken", async () => {
  // Prepare: a client whose first PutItem reaches the table and loses its answer, as a timed-out connection does
  const lossy = createDocumentClient();
  let lost = false;
  lossy.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'PutItemCommand' && !lost) {
        lost = true;
        throw Object.assign(new Error('the answer was lost'), { name: 'TimeoutError' }); // the SDK retries it
      }
      return result;
    },
    // Outside the deserializer (whose answer it throws away, its body read) and inside the retries.
    { step: 'deserialize', priority: 'high' },
  );

  // Act
  const release = await createAttemptSlots(lossy, tableName, 2, () => clock).take('org_7#live', 15_000);

  // Assess: the taker holds the slot its first try took; the tenant's other slot is still free, and the given-back one again
  expect(lost).toBe(true);
  expect(release).toEqual(expect.any(Function));
  expect(await slots().take('org_7#live', 15_000)).toEqual(expect.any(Function));
  await release!();
  expect(await slots().take('org_7#live', 15_000)).toEqual(expect.any(Function));
});

test('a slot held for longer (a slow or dead endpoint) is not waited for: the taker is told busy at once', async () => {
  // Prepare: both slots taken two seconds ago
  await Promise.all([slots().take('org_5#live', 15_000), slots().take('org_5#live', 15_000)]);
  clock += 2_000;

  // Act
  const counted = createDocumentClient();
  const queries: string[] = [];
  counted.middlewareStack.add((next, context) => (args) => (queries.push(context.commandName!), next(args)), { step: 'initialize' });
  const taken = await createAttemptSlots(counted, tableName, 2, () => clock).take('org_5#live', 15_000);

  // Assess: one look at the slots, and no second
  expect(taken).toBeUndefined();
  expect(queries).toEqual(['QueryCommand']);
});

test('twenty takers at once on one tenant: exactly two win', async () => {
  const taken = await Promise.all(Array.from({ length: 20 }, () => slots().take('org_3#live', 15_000)));
  expect(taken.filter(Boolean)).toHaveLength(2);
});
