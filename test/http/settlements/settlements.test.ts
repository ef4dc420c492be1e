import { client, expectEnvelope } from '../../support/http';
import {
  chargebackRecord,
  chargebackReversalRecord,
  clearingGroup,
  clearingLine,
  importDocument,
  paymentRecord,
  refundRecord,
  rollbackRecord,
  settlementInput,
} from '../../support/settlements';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;
let merchant: Merchant;
let live: ReturnType<typeof client>;
let several: ReturnType<typeof settlementInput>;
let one: ReturnType<typeof settlementInput>;
let older: ReturnType<typeof settlementInput>;
let records: Record<string, any>;
let severalId: string;

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
  live = client(stack.baseUrl, merchant.live);
  records = {
    chargeback: chargebackRecord({ created_at: '2026-11-18T12:00:00.000Z' }),
    refund: refundRecord({ created_at: '2026-11-18T11:00:00.000Z' }),
    payment: paymentRecord(merchant.orgId, merchant.acceptorId, { paid_at: '2026-11-18T10:01:00.5+01:00' }),
    unpaid: paymentRecord(merchant.orgId, merchant.acceptorId, {
      status: 'open',
      created_at: '2026-11-18T08:00:00Z',
      paid_at: null,
      description: null,
      metadata: null,
    }),
    reversal: chargebackReversalRecord({ transaction_date: '2026-11-17' }),
    rollback: rollbackRecord({ transaction_date: '2026-11-16' }),
  };
  several = settlementInput(merchant.orgId, {
    created_at: '2026-11-20T06:00:00.654321+00:00',
    clearings: [
      clearingGroup([clearingLine(), clearingLine({ direction: 'debit', amount: { value: '5.5', currency: 'eur' } })]),
      clearingGroup([clearingLine({ payment_method: 'ideal', brand: undefined, card_type: undefined, funding_type: undefined, region: undefined, channel: undefined })]),
      clearingGroup(),
    ],
    records: Object.values(records),
  });
  one = settlementInput(merchant.orgId, {
    created_at: '2026-11-22T06:00:00Z',
    amount: { value: '10.5', currency: 'eur' },
    settlement_date: '2026-11-22',
  });
  older = settlementInput(merchant.orgId, { created_at: '2026-11-01T06:00:00Z' });
  await importDocument(stack, [several, one, older]);
  severalId = (await live.get(`/v1/settlements/${several.code}`)).body.id;
});
afterAll(() => stack.stop());

describe('retrieve', () => {
  test('by code: every field in its format, with clearings', async () => {
    const result = await live.get(`/v1/settlements/${several.code}`);
    expect(result.status).toBe(200);
    const self = `${stack.baseUrl}/v1/settlements/${several.code}`;
    expect(result.body).toEqual({
      id: expect.stringMatching(/^stl_[0-9a-z]{26}$/),
      object: 'settlement',
      org_id: merchant.orgId,
      code: several.code,
      description: 'Settlement of 3 clearings totalling 1234.56 EUR on 2026-11-20',
      settlement_date: '2026-11-20',
      confirmation_date: '2026-11-21',
      status: 'settled',
      amount: { value: '1234.56', currency: 'eur' },
      clearing_account: several.clearing_account,
      clearings: [
        {
          created_at: '2026-11-19T08:00:00.123456+00:00',
          clearing_lines: [
            { ...clearingLine(), amount: { value: '100.00', currency: 'eur' } },
            { ...clearingLine({ direction: 'debit' }), amount: { value: '5.50', currency: 'eur' } },
          ],
        },
        {
          created_at: '2026-11-19T08:00:00.123456+00:00',
          clearing_lines: [
            {
              clearing_date: '2026-11-18',
              value_date: '2026-11-19',
              settlement_date: '2026-11-20',
              state: 'cleared',
              payment_method: 'ideal',
              direction: 'credit',
              collecting: true,
              amount: { value: '100.00', currency: 'eur' },
              transaction_count: 3,
              unique_payers: 2,
            },
          ],
        },
        { created_at: '2026-11-19T08:00:00.123456+00:00', clearing_lines: [{ ...clearingLine(), amount: { value: '100.00', currency: 'eur' } }] },
      ],
      created_at: '2026-11-20T06:00:00.654321+00:00',
      updated_at: '2026-11-21T06:00:00.000001+00:00',
      links: { api: { href: self, type: 'application/json' }, records: { href: `${self}/records`, type: 'application/json' } },
    });
  });

  test('by stl_ id: the same object as by code', async () => {
    const byCode = await live.get(`/v1/settlements/${several.code}`);
    const byId = await live.get(`/v1/settlements/${severalId}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(byCode.body);
  });

  test('description: singular wording for one clearing, amount with two decimals and upper-case currency', async () => {
    const result = await live.get(`/v1/settlements/${one.code}`);
    expect(result.body.description).toBe('Settlement of 1 clearing totalling 10.50 EUR on 2026-11-22');
    expect(result.body.amount).toEqual({ value: '10.50', currency: 'eur' });
  });

  test('unknown code, unknown id and another organization -> the same 404', async () => {
    const other = await createMerchant(stack);
    const results = await Promise.all([
      live.get('/v1/settlements/NO-SUCH-CODE'),
      live.get('/v1/settlements/stl_00000000000000000000000000'),
      client(stack.baseUrl, other.live).get(`/v1/settlements/${several.code}`),
      client(stack.baseUrl, other.live).get(`/v1/settlements/${severalId}`),
    ]);
    for (const result of results) expectEnvelope(result, 404);
    expect(new Set(results.map((result) => result.text)).size).toBe(1);
  });

  test('a key without settlement:read -> 403', async () => {
    const token = await merchant.key({ mode: 'live', scopes: ['payment:read'] });
    expectEnvelope(await client(stack.baseUrl, token).get(`/v1/settlements/${several.code}`), 403);
  });
});

describe('live only', () => {
  test('a test key gets 404 on all three endpoints, whatever the query', async () => {
    const test = client(stack.baseUrl, merchant.test);
    const results = await Promise.all([
      test.get(`/v1/settlements/${several.code}`),
      test.get(`/v1/settlements/${severalId}`),
      test.get('/v1/settlements'),
      test.get('/v1/settlements?limit=0&bogus=1'),
      test.get(`/v1/settlements/${several.code}/records`),
      test.get(`/v1/settlements/${severalId}/records?type=payment`),
    ]);
    for (const result of results) expectEnvelope(result, 404);
  });
});

describe('list', () => {
  test('newest first by creation, items without clearings, {has_more, data}', async () => {
    const result = await live.get('/v1/settlements');
    expect(result.status).toBe(200);
    expect(Object.keys(result.body).sort()).toEqual(['data', 'has_more']);
    expect(result.body.has_more).toBe(false);
    expect(result.body.data.map((item: any) => item.code)).toEqual([one.code, several.code, older.code]);
    const { clearings: _clearings, ...withoutClearings } = (await live.get(`/v1/settlements/${several.code}`)).body;
    expect(result.body.data[1]).toEqual(withoutClearings);
    for (const item of result.body.data) expect(item).not.toHaveProperty('clearings');
  });

  test('starting_after and ending_before accept a code or an id', async () => {
    const page1 = await live.get('/v1/settlements?limit=1');
    expect(page1.body).toMatchObject({ has_more: true, data: [{ code: one.code }] });
    const afterCode = await live.get(`/v1/settlements?limit=1&starting_after=${one.code}`);
    expect(afterCode.body).toMatchObject({ has_more: true, data: [{ code: several.code }] });
    const afterId = await live.get(`/v1/settlements?starting_after=${severalId}`);
    expect(afterId.body).toMatchObject({ has_more: false, data: [{ code: older.code }] });
    const beforeCode = await live.get(`/v1/settlements?ending_before=${older.code}`);
    expect(beforeCode.body.data.map((item: any) => item.code)).toEqual([one.code, several.code]);
    expect(beforeCode.body.has_more).toBe(false);
    const beforeId = await live.get(`/v1/settlements?limit=1&ending_before=${severalId}`);
    expect(beforeId.body).toMatchObject({ has_more: false, data: [{ code: one.code }] });
  });

  test('list: limit outside 1..100 -> 422 attribute limit', async () => {
    for (const limit of ['0', '101', 'abc', '1.5']) expectEnvelope(await live.get(`/v1/settlements?limit=${limit}`), 422, 'limit');
  });

  test('list: unknown cursor, foreign code, both cursors -> 422 with the attribute; unknown parameter -> 400', async () => {
    const other = await createMerchant(stack);
    const foreign = client(stack.baseUrl, other.live);
    expectEnvelope(await live.get('/v1/settlements?starting_after=NO-SUCH'), 422, 'starting_after');
    expectEnvelope(await live.get('/v1/settlements?ending_before=stl_00000000000000000000000000'), 422, 'ending_before');
    expectEnvelope(await live.get('/v1/settlements?starting_after=a%2Fb'), 422, 'starting_after');
    expectEnvelope(await foreign.get(`/v1/settlements?starting_after=${several.code}`), 422, 'starting_after');
    expectEnvelope(await live.get(`/v1/settlements?starting_after=${one.code}&ending_before=${older.code}`), 422, 'ending_before');
    expectEnvelope(await live.get('/v1/settlements?status=settled'), 400);
    expect((await foreign.get('/v1/settlements')).body).toEqual({ has_more: false, data: [] });
  });
});

describe('records', () => {
  const recordsOf = (query = '') => live.get(`/v1/settlements/${several.code}/records${query}`);

  test('newest first by transaction time, every record type in its shape', async () => {
    const result = await recordsOf('?limit=100');
    expect(result.status).toBe(200);
    expect(Object.keys(result.body).sort()).toEqual(['data', 'has_more']);
    expect(result.body.has_more).toBe(false);
    expect(result.body.data.map((record: any) => record.object)).toEqual([
      'chargeback',
      'refund',
      'payment',
      'payment',
      'chargeback_reversal',
      'rollback',
    ]);
    const api = (path: string) => ({ href: `${stack.baseUrl}/v1/${path}`, type: 'application/json' });
    const [chargeback, refund, payment, unpaid, reversal, rollback] = result.body.data;
    expect(chargeback).toEqual({
      ...records.chargeback,
      deadline_at: '2026-11-25T12:00:00.000000+00:00',
      created_at: '2026-11-18T12:00:00.000000+00:00',
      links: { api: api(`chargebacks/${records.chargeback.id}`), payment: api(`payments/${records.chargeback.payment_id}`) },
    });
    expect(refund).toEqual({
      ...records.refund,
      created_at: '2026-11-18T11:00:00.000000+00:00',
      links: { api: api(`refunds/${records.refund.id}`), payment: api(`payments/${records.refund.payment_id}`) },
    });
    expect(payment).toEqual({
      ...records.payment,
      created_at: '2026-11-18T10:00:00.000000+00:00',
      paid_at: '2026-11-18T09:01:00.500000+00:00',
      links: { api: api(`payments/${records.payment.id}`) },
    });
    expect(unpaid).toMatchObject({ id: records.unpaid.id, paid_at: null, description: null, metadata: null });
    expect(reversal).toEqual(records.reversal);
    expect(reversal).not.toHaveProperty('id');
    expect(reversal).not.toHaveProperty('links');
    expect(rollback).toEqual(records.rollback);
  });

  test('type filter: each type alone, for all five types', async () => {
    const expected: Record<string, string[]> = {
      payment: [records.payment.id, records.unpaid.id],
      refund: [records.refund.id],
      chargeback: [records.chargeback.id],
      chargeback_reversal: [records.reversal.chargeback_id],
      rollback: [records.rollback.payment_id],
    };
    for (const [type, ids] of Object.entries(expected)) {
      const result = await recordsOf(`?type=${type}`);
      expect(result.status).toBe(200);
      expect(result.body.data.map((record: any) => record.object)).toEqual(ids.map(() => type));
      expect(result.body.data.map((record: any) => record.id ?? record.chargeback_id ?? record.payment_id)).toEqual(ids);
    }
  });

  test('type: other values -> 400; unknown parameter -> 400', async () => {
    expectEnvelope(await recordsOf('?type=payout'), 400);
    expectEnvelope(await recordsOf('?type=PAYMENT'), 400);
    expectEnvelope(await recordsOf('?direction=debit'), 400);
  });

  test('pagination forward with starting_after and back with ending_before, both by id', async () => {
    const all = (await recordsOf('?limit=100')).body.data;
    const first = await recordsOf('?limit=2');
    expect(first.body).toEqual({ has_more: true, data: all.slice(0, 2) });
    const second = await recordsOf(`?limit=2&starting_after=${first.body.data[1].id}`);
    expect(second.body).toEqual({ has_more: true, data: all.slice(2, 4) });
    const third = await recordsOf(`?limit=2&starting_after=${second.body.data[1].id}`);
    expect(third.body).toEqual({ has_more: false, data: all.slice(4, 6) });
    const back = await recordsOf(`?limit=2&ending_before=${second.body.data[0].id}`);
    expect(back.body).toEqual({ has_more: false, data: all.slice(0, 2) });
    const backOne = await recordsOf(`?limit=1&ending_before=${second.body.data[1].id}`);
    expect(backOne.body).toEqual({ has_more: true, data: all.slice(2, 3) });
  });

  test('pagination within a type: cursors of that type only', async () => {
    const page = await recordsOf(`?type=payment&limit=1&starting_after=${records.payment.id}`);
    expect(page.body).toEqual({ has_more: false, data: [expect.objectContaining({ id: records.unpaid.id })] });
    const back = await recordsOf(`?type=payment&ending_before=${records.unpaid.id}`);
    expect(back.body).toEqual({ has_more: false, data: [expect.objectContaining({ id: records.payment.id })] });
    expectEnvelope(await recordsOf(`?type=payment&starting_after=${records.refund.id}`), 422, 'starting_after');
  });

  test('records: bad cursors -> 422 with the attribute; limit rules as every list', async () => {
    const otherRecord = paymentRecord(merchant.orgId, merchant.acceptorId);
    await importDocument(stack, [settlementInput(merchant.orgId, { records: [otherRecord] })]);
    expectEnvelope(await recordsOf(`?starting_after=${otherRecord.id}`), 422, 'starting_after');
    expectEnvelope(await recordsOf(`?ending_before=${records.reversal.chargeback_id}`), 422, 'ending_before');
    expectEnvelope(await recordsOf('?starting_after=str_whatever'), 422, 'starting_after');
    expectEnvelope(await recordsOf(`?starting_after=${records.payment.id}&ending_before=${records.refund.id}`), 422, 'ending_before');
    for (const limit of ['0', '101', 'x']) expectEnvelope(await recordsOf(`?limit=${limit}`), 422, 'limit');
    expect((await recordsOf()).body.data).toHaveLength(6);
  });

  test('records by id path and default limit 10', async () => {
    const many = Array.from({ length: 12 }, () => refundRecord());
    const settlement = settlementInput(merchant.orgId, { records: many });
    await importDocument(stack, [settlement]);
    const id = (await live.get(`/v1/settlements/${settlement.code}`)).body.id;
    const page = await live.get(`/v1/settlements/${id}/records`);
    expect(page.body.has_more).toBe(true);
    expect(page.body.data).toHaveLength(10);
    expectEnvelope(await live.get('/v1/settlements/NO-SUCH/records'), 404);
  });
});
