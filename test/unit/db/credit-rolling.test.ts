import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { CREDITS_PER_ROLL, pendingCreditPut, pendingCreditsOf, readBalance, rollCredits } from '../../../shared/db/balance';
import { createDocumentClient } from '../../../shared/db/client';
import { paymentMovement, type BalanceRef } from '../../../shared/domain/balance';
import { newId } from '../../../shared/ids';

/**
 * Rolling pending credits into a balance, on a table no stream reader watches (so that only the
 * test rolls): through the contending DynamoDB Local, as the outbox processor and `ops` do.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT!;
const db = createDocumentClient({ endpoint });
const tableName = `credits-${randomUUID()}`;
const env = { ...process.env };

beforeAll(async () => {
  await ensureTable(endpoint, tableName);
  process.env.TABLE_NAME = tableName;
});
afterAll(() => {
  process.env = env;
  db.destroy();
});

/** `count` paid payments' credits of `amountMinor` each, written pending as the paid transaction writes them. */
async function pendingCredits(ref: BalanceRef, count: number, amountMinor: number) {
  const puts = Array.from({ length: count }, () => pendingCreditPut(tableName, ref, paymentMovement(newId('payment'), amountMinor)));
  for (let start = 0; start < puts.length; start += 100) await db.send(new TransactWriteCommand({ TransactItems: puts.slice(start, start + 100) }));
  return pendingCreditsOf(db, tableName, ref.orgId, ref.mode);
}

test(`credits handed over twice, by rollers racing, count once; more than ${CREDITS_PER_ROLL} go in several transactions`, async () => {
  // Prepare
  const ref: BalanceRef = { orgId: newId('organization'), mode: 'test', currency: 'EUR' };
  const credits = await pendingCredits(ref, 150, 100);
  expect(credits).toHaveLength(150);
  // Act: three rollers, as a batch handed over again while the first still runs
  await Promise.all([rollCredits(db, tableName, ref, credits), rollCredits(db, tableName, ref, credits.slice(40)), rollCredits(db, tableName, ref, [...credits].reverse())]);
  // Assess
  expect(await readBalance(db, tableName, ref)).toBe(15_000);
  expect(await pendingCreditsOf(db, tableName, ref.orgId, ref.mode)).toEqual([]);
  expect(await rollCredits(db, tableName, ref, credits)).toBe(0);
  expect(await readBalance(db, tableName, ref)).toBe(15_000);
});

test('ops balance roll: the credits the stream could not roll, each once, per currency; nothing pending after', async () => {
  // Prepare
  const orgId = newId('organization');
  await pendingCredits({ orgId, mode: 'live', currency: 'EUR' }, 3, 250);
  await pendingCredits({ orgId, mode: 'live', currency: 'USD' }, 2, 999);
  await pendingCredits({ orgId, mode: 'test', currency: 'EUR' }, 1, 100);
  // Act
  const rolled = await runOps(opsCommands(), ['balance', 'roll', '--org', orgId, '--mode', 'live']);
  const again = await runOps(opsCommands(), ['balance', 'roll', '--org', orgId, '--mode', 'live']);
  // Assess
  expect(rolled).toEqual({ pending: 5, rolled: 5, unrolled: 0 });
  expect(again).toEqual({ pending: 0, rolled: 0, unrolled: 0 });
  expect(await readBalance(db, tableName, { orgId, mode: 'live', currency: 'EUR' })).toBe(750);
  expect(await readBalance(db, tableName, { orgId, mode: 'live', currency: 'USD' })).toBe(1_998);
  // The other mode is another balance, left to its own command.
  expect(await pendingCreditsOf(db, tableName, orgId, 'test')).toHaveLength(1);
});
