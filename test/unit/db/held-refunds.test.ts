import { randomUUID } from 'node:crypto';
import { hasHeldRefunds, clearHoldMarker, refundBalanceChange, type RefundBalanceChange } from '../../../shared/db/balance';
import { adjustmentMovement } from '../../../shared/domain/balance';
import { createDocumentClient } from '../../../shared/db/client';
import { transactWrite } from '../../../shared/db/side-effects';
import { ensureTable } from '../../../bin/local/dynamodb-local';

/*
 * The one GetItem that lets a paid payment skip the hold queue (docs/refunds.md): against
 * DynamoDB Local, in each state the refund writes leave a balance in. A wrong "no" would leave
 * a covered refund held until the minute job; a wrong "yes" costs a Query and a write.
 */
const tableName = `test-${randomUUID()}`;
const db = createDocumentClient();
const balance = () => ({ orgId: `org_${randomUUID().slice(0, 8)}`, mode: 'test' as const, currency: 'eur' });
const change = (ref: ReturnType<typeof balance>, moved: RefundBalanceChange) => transactWrite(db, refundBalanceChange(tableName, ref, moved));

beforeAll(() => ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName));

test('no balance item yet: nothing is held', async () => {
  expect(await hasHeldRefunds(db, tableName, balance())).toBe(false);
});

test('a balance that was only ever credited and debited: nothing is held', async () => {
  const ref = balance();
  await change(ref, { movement: adjustmentMovement(1_000) });
  await change(ref, { movement: adjustmentMovement(-400), mustCover: true });
  expect(await hasHeldRefunds(db, tableName, ref)).toBe(false);
});

test('a refund on hold: held, whatever the available amount', async () => {
  const ref = balance();
  await change(ref, { heldDelta: 1 });
  expect(await hasHeldRefunds(db, tableName, ref)).toBe(true);
  await change(ref, { movement: adjustmentMovement(5_000) });
  expect(await hasHeldRefunds(db, tableName, ref)).toBe(true);
});

test('the last held refund covered but its marker not yet removed: still "held" until the marker goes', async () => {
  const ref = balance();
  await change(ref, { movement: adjustmentMovement(2_000) });
  await change(ref, { heldDelta: 1 });
  await change(ref, { movement: adjustmentMovement(-500), heldDelta: -1, mustCover: true });
  // heldCount is 0, but the marker the job queries is still on the item: the release must run to remove it.
  expect(await hasHeldRefunds(db, tableName, ref)).toBe(true);
  await clearHoldMarker(db, tableName, ref);
  expect(await hasHeldRefunds(db, tableName, ref)).toBe(false);
});
