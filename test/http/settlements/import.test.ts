import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { csvField, toCsv } from '../../../shared/csv';
import { readBalance } from '../../../shared/db/balance';
import { SettlementImportError } from '../../../shared/domain/settlement-import';
import { newId } from '../../../shared/ids';
import { lambdaContext } from '../../../bin/local/invocation';
import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { client } from '../../support/http';
import {
  chargebackRecord,
  chargebackReversalRecord,
  importDocument,
  paymentRecord,
  refundRecord,
  rollbackRecord,
  settlementInput,
} from '../../support/settlements';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;
let dir: string;

beforeAll(async () => {
  stack = await startTestStack();
  dir = await mkdtemp(join(tmpdir(), 'settlements-'));
});
afterAll(() => stack.stop());

const balanceOf = (merchant: Merchant, currency = 'EUR') =>
  readBalance(stack.db, stack.tableName, { orgId: merchant.orgId, mode: 'live', currency });

async function writeDocument(settlements: unknown[]): Promise<string> {
  const file = join(dir, `${newId('event')}.json`);
  await writeFile(file, JSON.stringify({ settlements }));
  return file;
}

const ops = async (...argv: string[]) => runOps(opsCommands(), argv);

/** Every stored record item of a settlement, whichever record set it belongs to (test-only Scan). */
async function storedRecordItems(settlementId: string): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await stack.db.send(
      new ScanCommand({
        TableName: stack.tableName,
        FilterExpression: '#id = :id AND attribute_exists(#record)',
        ExpressionAttributeNames: { '#id': 'settlementId', '#record': 'record' },
        ExpressionAttributeValues: { ':id': settlementId },
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

async function expectRefused(merchant: Merchant, settlements: unknown[], ...fragments: string[]) {
  const file = await writeDocument(settlements);
  const refusal = ops('settlement', 'import', '--file', file);
  await expect(refusal).rejects.toBeInstanceOf(SettlementImportError);
  const message = await refusal.catch((error: Error) => error.message);
  for (const fragment of fragments) expect(message).toContain(fragment);
  const list = await client(stack.baseUrl, merchant.live).get('/v1/settlements');
  expect(list.body).toEqual({ has_more: false, data: [] });
  expect(await balanceOf(merchant)).toBe(0);
}

describe('import refuses a bad file whole', () => {
  test('a bad record amount in the second settlement: message names its code and field; nothing imported', async () => {
    const merchant = await createMerchant(stack);
    const good = settlementInput(merchant.orgId, { records: [refundRecord()] });
    const bad = settlementInput(merchant.orgId, { records: [refundRecord(), refundRecord({ amount: { value: '1,00', currency: 'eur' } })] });
    await expectRefused(merchant, [good, bad], `settlement ${bad.code}`, 'records[1].amount.value');
  });

  test('unknown organization, missing field, unknown field, bad date, bad record type', async () => {
    const merchant = await createMerchant(stack);
    const good = settlementInput(merchant.orgId);
    const unknownOrg = settlementInput(newId('organization'));
    await expectRefused(merchant, [good, unknownOrg], `settlement ${unknownOrg.code}`, 'org_id');
    const { clearing_account: _account, ...missing } = settlementInput(merchant.orgId);
    await expectRefused(merchant, [good, missing], `settlement ${missing.code}`, 'clearing_account');
    const extra = settlementInput(merchant.orgId, { payout_id: 'x' });
    await expectRefused(merchant, [extra], `settlement ${extra.code}`, 'payout_id');
    const badDate = settlementInput(merchant.orgId, { settlement_date: '20-11-2026' });
    await expectRefused(merchant, [badDate], 'settlement_date');
    const badType = settlementInput(merchant.orgId, { records: [{ ...rollbackRecord(), object: 'payout' }] });
    await expectRefused(merchant, [badType], 'records[0].object');
    const badLine = settlementInput(merchant.orgId, { clearings: [{ created_at: 'yesterday', clearing_lines: [] }] });
    await expectRefused(merchant, [badLine], 'clearings[0].created_at');
  });

  test('duplicate codes, duplicate record ids, a payment of another organization, a bad document', async () => {
    const merchant = await createMerchant(stack);
    const first = settlementInput(merchant.orgId);
    await expectRefused(merchant, [first, settlementInput(merchant.orgId, { code: first.code })], `settlement ${first.code}`, 'code');
    const refund = refundRecord();
    await expectRefused(merchant, [settlementInput(merchant.orgId, { records: [refund, refund] })], 'records[1].id');
    const foreign = paymentRecord(newId('organization'), merchant.acceptorId);
    await expectRefused(merchant, [settlementInput(merchant.orgId, { records: [foreign] })], 'records[0].org_id');
    const file = join(dir, 'not-a-document.json');
    await writeFile(file, JSON.stringify([settlementInput(merchant.orgId)]));
    await expect(ops('settlement', 'import', '--file', file)).rejects.toThrow(/settlements/);
    await writeFile(file, '{"settlements": [');
    await expect(ops('settlement', 'import', '--file', file)).rejects.toThrow(/not valid JSON/);
  });

  test('an id that does not match the settlement already imported under the code is refused', async () => {
    const merchant = await createMerchant(stack);
    const settlement = settlementInput(merchant.orgId);
    await importDocument(stack, [settlement]);
    const file = await writeDocument([{ ...settlement, id: newId('settlement') }]);
    await expect(ops('settlement', 'import', '--file', file)).rejects.toThrow(`settlement ${settlement.code} (settlements[0]): id`);
  });
});

describe('import and re-import', () => {
  test('ops settlement import prints {imported: n}; the settlement debits the live balance once', async () => {
    const merchant = await createMerchant(stack);
    const records = [paymentRecord(merchant.orgId, merchant.acceptorId), refundRecord(), chargebackRecord()];
    const settlement = settlementInput(merchant.orgId, { amount: { value: '100.00', currency: 'eur' }, records, updated_at: undefined });
    const file = await writeDocument([settlement]);
    expect(await ops('settlement', 'import', '--file', file)).toEqual({ imported: 1 });
    expect(await balanceOf(merchant)).toBe(-10_000);
    const live = client(stack.baseUrl, merchant.live);
    const before = (await live.get(`/v1/settlements/${settlement.code}`)).body;

    expect(await ops('settlement', 'import', '--file', file)).toEqual({ imported: 1 });
    expect(await balanceOf(merchant)).toBe(-10_000);
    expect((await live.get(`/v1/settlements/${settlement.code}`)).body).toEqual(before);
    expect((await live.get(`/v1/settlements/${settlement.code}/records`)).body.data).toHaveLength(3);
    expect(await storedRecordItems(before.id)).toBe(3);
  });

  test('re-import updates by code: amount difference on the balance, records replaced not duplicated', async () => {
    const merchant = await createMerchant(stack);
    const kept = refundRecord();
    const settlement = settlementInput(merchant.orgId, {
      amount: { value: '100.00', currency: 'eur' },
      records: [kept, refundRecord(), chargebackReversalRecord()],
    });
    await importDocument(stack, [settlement]);
    const live = client(stack.baseUrl, merchant.live);
    const id = (await live.get(`/v1/settlements/${settlement.code}`)).body.id;

    const added = rollbackRecord();
    const changed = { ...settlement, status: 'failed', amount: { value: '120.00', currency: 'eur' }, records: [kept, added] };
    expect(await importDocument(stack, [changed])).toEqual({ imported: 1 });
    const after = (await live.get(`/v1/settlements/${settlement.code}`)).body;
    expect(after).toMatchObject({ id, status: 'failed', amount: { value: '120.00', currency: 'eur' } });
    expect(await balanceOf(merchant)).toBe(-12_000);
    const listed = (await live.get(`/v1/settlements/${id}/records`)).body.data;
    expect(listed.map((record: any) => record.id ?? record.object)).toEqual([kept.id, 'rollback']);
    expect(await storedRecordItems(id)).toBe(2);
    expect((await live.get('/v1/settlements')).body.data).toHaveLength(1);

    await importDocument(stack, [{ ...changed, amount: { value: '50.00', currency: 'usd' } }]);
    expect(await balanceOf(merchant)).toBe(0);
    expect(await balanceOf(merchant, 'USD')).toBe(-5_000);
  });

  test('concurrent imports of one code: one settlement, the balance matches the amount shown, one record set', async () => {
    const merchant = await createMerchant(stack);
    const base = settlementInput(merchant.orgId);
    const versions = [1, 2, 3, 4].map((n) =>
      ({ ...base, amount: { value: `${n}0.00`, currency: 'eur' }, records: Array.from({ length: n * 10 }, () => refundRecord()) }),
    );
    await Promise.all(versions.map((version) => importDocument(stack, [version])));
    const live = client(stack.baseUrl, merchant.live);
    const shown = (await live.get(`/v1/settlements/${base.code}`)).body;
    const n = Number(shown.amount.value) / 10;
    expect(await balanceOf(merchant)).toBe(-n * 1000);
    expect((await live.get(`/v1/settlements/${base.code}/records?limit=100`)).body.data).toHaveLength(n * 10);
    expect(await storedRecordItems(shown.id)).toBe(n * 10);
    expect((await live.get('/v1/settlements')).body.data).toHaveLength(1);
  });

  test('the feed function runs the same import on its event', async () => {
    const merchant = await createMerchant(stack);
    const { handler } = await import('../../../functions/import-settlements/handler');
    const settlement = settlementInput(merchant.orgId, { amount: { value: '1.00', currency: 'eur' } });
    expect(await handler({ settlements: [settlement] }, lambdaContext('import-settlements'))).toEqual({ imported: 1 });
    expect((await client(stack.baseUrl, merchant.live).get(`/v1/settlements/${settlement.code}`)).status).toBe(200);
    await expect(handler({ settlements: [{ ...settlement, status: 'paid' }] }, lambdaContext('import-settlements'))).rejects.toThrow(`settlement ${settlement.code}`);
    expect(await balanceOf(merchant)).toBe(-100);
  });
});

describe('CSV export', () => {
  const execFileAsync = promisify(execFile);
  const opsProcess = (...argv: string[]) =>
    execFileAsync(join(__dirname, '..', '..', '..', 'node_modules', '.bin', 'tsx'), [join(__dirname, '..', '..', '..', 'bin', 'ops.ts'), ...argv], {
      env: { ...process.env, TABLE_NAME: stack.tableName },
    });

  test('ops settlement export writes one CSV row per record, newest first, to stdout or --out', async () => {
    const merchant = await createMerchant(stack);
    const payment = paymentRecord(merchant.orgId, merchant.acceptorId, { paid_at: '2026-11-18T23:30:00-02:00' });
    const refund = refundRecord({ created_at: '2026-11-18T11:00:00Z', amount: { value: '-2.5', currency: 'EUR' } });
    const reversal = chargebackReversalRecord({ transaction_date: '2026-11-17' });
    const rollback = rollbackRecord({ payment_id: null, transaction_date: '2026-11-16' });
    const settlement = settlementInput(merchant.orgId, { records: [rollback, refund, payment, reversal] });
    await importDocument(stack, [settlement]);

    const expected =
      'type,direction,id,payment_id,status,amount,currency,transaction_date\r\n' +
      `payment,credit,${payment.id},${payment.id},paid,10.00,eur,2026-11-19\r\n` +
      `refund,debit,${refund.id},${refund.payment_id},refunded,-2.50,eur,2026-11-18\r\n` +
      `chargeback_reversal,credit,,${reversal.payment_id},,7.00,eur,2026-11-17\r\n` +
      'rollback,debit,,,,3.00,eur,2026-11-16\r\n';
    const { stdout } = await opsProcess('settlement', 'export', '--code', settlement.code, '--format', 'csv');
    expect(stdout).toBe(expected);

    const id = (await client(stack.baseUrl, merchant.live).get(`/v1/settlements/${settlement.code}`)).body.id;
    const out = join(dir, 'export.csv');
    expect(await ops('settlement', 'export', '--code', id, '--format', 'csv', '--out', out)).toEqual({ written: 4 });
    expect(await readFile(out, 'utf8')).toBe(expected);
  });

  test('export: a code two organizations use needs --org; unknown code and other formats are usage errors', async () => {
    const [a, b] = [await createMerchant(stack), await createMerchant(stack)];
    const code = settlementInput(a.orgId).code;
    await importDocument(stack, [settlementInput(a.orgId, { code, records: [refundRecord()] }), settlementInput(b.orgId, { code })]);
    await expect(ops('settlement', 'export', '--code', code, '--format', 'csv')).rejects.toThrow(/give --org/);
    const csv = (await ops('settlement', 'export', '--code', code, '--format', 'csv', '--org', a.orgId)) as { text: string };
    expect(csv.text.split('\r\n').filter(Boolean)).toHaveLength(2);
    await expect(ops('settlement', 'export', '--code', 'NO-SUCH', '--format', 'csv')).rejects.toThrow(/No settlement/);
    await expect(ops('settlement', 'export', '--code', code, '--format', 'xlsx')).rejects.toThrow(/--format must be csv/);
    await expect(opsProcess('settlement', 'export', '--code', code, '--format', 'csv')).rejects.toMatchObject({ code: 2 });
  });

  test('csv: fields with commas, quotes or line breaks are quoted, quotes doubled', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(toCsv([['x', 'line\nbreak'], ['', 'y']])).toBe('x,"line\nbreak"\r\n,y\r\n');
  });
});

describe('a large settlement', () => {
  /** Ten pages each way: every page boundary is a cursor like any other, so more pages would only repeat them. */
  const RECORDS = 1_000;
  test('1,000 records page through in pages of 100, each record seen exactly once, in both directions', async () => {
    const merchant = await createMerchant(stack);
    const makers = [
      (i: number) => paymentRecord(merchant.orgId, merchant.acceptorId, { paid_at: at(i) }),
      (i: number) => refundRecord({ created_at: at(i) }),
      (i: number) => chargebackRecord({ created_at: at(i) }),
    ];
    // Seven records share each second: ties in transaction time are ordered by id.
    function at(i: number) {
      return new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 7) * 1000).toISOString();
    }
    const records = Array.from({ length: RECORDS }, (_, i) => makers[i % 3](i));
    const settlement = settlementInput(merchant.orgId, { records });
    expect(await importDocument(stack, [settlement])).toEqual({ imported: 1 });

    const live = client(stack.baseUrl, merchant.live);
    const path = `/v1/settlements/${settlement.code}/records?limit=100`;
    const forward: string[] = [];
    let page = (await live.get(path)).body;
    for (;;) {
      expect(page.data.length).toBe(100);
      forward.push(...page.data.map((record: any) => record.id));
      if (!page.has_more) break;
      page = (await live.get(`${path}&starting_after=${forward[forward.length - 1]}`)).body;
    }
    expect(forward).toHaveLength(RECORDS);
    expect(new Set(forward).size).toBe(RECORDS);
    expect(new Set(forward)).toEqual(new Set(records.map((record) => record.id)));

    const backward: string[] = [];
    let cursor = forward[forward.length - 1];
    for (;;) {
      page = (await live.get(`${path}&ending_before=${cursor}`)).body;
      backward.unshift(...page.data.map((record: any) => record.id));
      if (!page.has_more) break;
      cursor = page.data[0].id;
    }
    expect(backward).toEqual(forward.slice(0, -1));
  }, 180_000);
});
