import {
  DEFAULT_OVERCAP_PCT,
  REFUND_EVENTS,
  REFUND_MOVES,
  REFUND_STATUSES,
  balanceResource,
  isDueForProcessing,
  newRefund,
  overcapCeilingMinor,
  planRefundAmount,
  refundCreateBody,
  refundEvent,
  refundPage,
  refundResource,
  refundResourceSchema,
  refundTransitionBody,
  refundableRestMinor,
  transitionRefund,
  type RefundAmountPlan,
  type RefundAmountRequest,
  type RefundMove,
  type RefundablePayment,
  type Refund,
  type RefundStatus,
} from '../../../shared/domain/refunds';
import { BusinessRuleError, InvalidRequestError } from '../../../shared/errors';
import { parseWith } from '../../../shared/http/validation';
import { CREATED_AT, ruleError, thrownBy, urls } from './fixtures';

/**
 * Refunds (contract "Refund", POST /v1/payments/:id/refunds; product-decisions §6): the
 * refundable amount and the overcapture ceiling, the currency and status rules, the lifecycle
 * as one transition function with its balance effects, and the refund object.
 */

const payment = (amountMinor: number, refundedMinor = 0, overrides: Partial<RefundablePayment> = {}): RefundablePayment => ({
  status: 'paid',
  amountMinor,
  currency: 'EUR',
  refundedMinor,
  ...overrides,
});

const refund = (status: RefundStatus, onHold = false, overrides: Partial<Refund> = {}): Refund => ({
  ...newRefund({
    id: 'rf_01jd2x3y4z5a6b7c8d9e0f1g2h',
    orgId: 'org_01jd2x3y4z5a6b7c8d9e0f1g2h',
    mode: 'test',
    acceptorId: 'acceptor_01jd2x3y4z5a6b7c8d9e0f1g2h',
    paymentId: 'pay_01jd2x3y4z5a6b7c8d9e0f1g2h',
    paymentLinkId: 'pl_01jd2x3y4z5a6b7c8d9e0f1g2h',
    amountMinor: 500,
    currency: 'EUR',
    description: '',
    metadata: {},
    createdAt: '2026-11-21T00:00:00.000Z',
  }),
  status,
  onHold,
  ...overrides,
});

describe('Function: overcapCeilingMinor', () => {
  test.each([
    [1000, '0.20', 1200],
    [1000, '0', 1000],
    [10000, '0.50', 11500],
    [10000, '0.20', 11500],
    [7500, '0.20', 9000],
    [7501, '0.20', 9001], // 90.012 -> 90.01
    [7504, '0.20', 9004], // 90.048 -> 90.04, never rounded up
    [333, '0.333333', 443], // 3.33 x 1.333333 = 4.43999889 -> 4.43
    [100, '9999.999999', 1600],
    [100000, '0.0001', 100010],
  ])('overcap: min(amount x (1 + overcap_pct), amount + 15.00 EUR), rounded down to the cent: %i with %s -> %i', (amountMinor, pct, expected) => {
    // Act
    const ceiling = overcapCeilingMinor(amountMinor, pct);
    // Assess
    expect(ceiling).toBe(expected);
  });

  test('overcap: overcap_pct defaults to 0.20', () => {
    // Act
    const plan = planRefundAmount(payment(1000), { amountMinor: 1200, allowOvercaptured: true });
    // Assess
    expect(DEFAULT_OVERCAP_PCT).toBe('0.20');
    expect(plan.limitMinor).toBe(1200);
  });
});

describe('Function: refundableRestMinor', () => {
  test.each<[string, RefundablePayment, number]>([
    ['refundable: the whole amount without refunds', payment(1000), 1000],
    ['refundable: refundedMinor absent counts as none', { status: 'paid', amountMinor: 1000, currency: 'EUR' }, 1000],
    ['refundable: the amount minus refunds not failed or canceled', payment(1000, 300), 700],
    ['refundable: nothing left once fully refunded', payment(1000, 1000), 0],
    ['refundable: never below zero after an overcaptured refund', payment(1000, 1100), 0],
  ])('%s', (_rule, paid, expected) => {
    // Act
    const rest = refundableRestMinor(paid);
    // Assess
    expect(rest).toBe(expected);
  });
});

describe('Function: planRefundAmount', () => {
  test.each<[string, RefundablePayment, RefundAmountRequest, RefundAmountPlan]>([
    ['plan: amount omitted -> the whole refundable rest', payment(1000, 300), {}, { amountMinor: 700, limitMinor: 1000 }],
    ['plan: amount omitted with allow_overcaptured -> still the rest, within the ceiling', payment(1000, 300), { allowOvercaptured: true }, { amountMinor: 700, limitMinor: 1200 }],
    ['plan: exactly the refundable rest', payment(1000, 300), { amountMinor: 700 }, { amountMinor: 700, limitMinor: 1000 }],
    ['plan: a part of the rest', payment(1000), { amountMinor: 1 }, { amountMinor: 1, limitMinor: 1000 }],
    ['plan: allow_overcaptured -> all refunds together up to the ceiling', payment(1000, 300), { amountMinor: 900, allowOvercaptured: true }, { amountMinor: 900, limitMinor: 1200 }],
    ['plan: allow_overcaptured with a given overcap_pct', payment(1000), { amountMinor: 1100, allowOvercaptured: true, overcapPct: '0.10' }, { amountMinor: 1100, limitMinor: 1100 }],
    ['plan: allow_overcaptured is capped at the payment amount + 15.00 EUR', payment(10000), { amountMinor: 11500, allowOvercaptured: true, overcapPct: '0.50' }, { amountMinor: 11500, limitMinor: 11500 }],
    ['plan: allow_overcaptured false is the default rule', payment(1000), { amountMinor: 1000, allowOvercaptured: false, overcapPct: '0.50' }, { amountMinor: 1000, limitMinor: 1000 }],
    ['plan: currency eur in any letter case', payment(1000), { amountMinor: 100, currency: 'eur' }, { amountMinor: 100, limitMinor: 1000 }],
    ['plan: a payment stored with a lower-case eur', payment(1000, 0, { currency: 'eur' }), {}, { amountMinor: 1000, limitMinor: 1000 }],
    ['decisions §6: a won chargeback no longer blocks a refund', payment(1000, 0, { unwonChargebacks: 0 }), {}, { amountMinor: 1000, limitMinor: 1000 }],
  ])('%s', (_rule, paid, request, expected) => {
    // Act
    const plan = planRefundAmount(paid, request);
    // Assess
    expect(plan).toEqual(expected);
  });

  test.each<[string, RefundablePayment, RefundAmountRequest, string, string | undefined]>([
    ['plan: amount omitted with nothing left -> 422 amount.value', payment(1000, 1000), {}, 'amount.value', 'The payment has nothing left to refund'],
    ['plan: amount omitted after an overcaptured refund -> 422 amount.value', payment(1000, 1100), { allowOvercaptured: true }, 'amount.value', undefined],
    ['plan: one cent above the refundable rest -> 422 amount.value', payment(1000, 300), { amountMinor: 701 }, 'amount.value', 'amount.value exceeds the refundable rest of 7.00 eur'],
    ['plan: above the payment without allow_overcaptured -> 422 amount.value', payment(1000), { amountMinor: 1001 }, 'amount.value', undefined],
    ['plan: one cent above the overcap ceiling -> 422 amount.value', payment(1000, 300), { amountMinor: 901, allowOvercaptured: true }, 'amount.value', 'All refunds of the payment together may reach at most 12.00 eur; at most 9.00 eur can still be refunded'],
    ['plan: above amount + 15.00 EUR whatever overcap_pct says -> 422 amount.value', payment(10000), { amountMinor: 11501, allowOvercaptured: true, overcapPct: '0.50' }, 'amount.value', undefined],
    ['plan: an open payment -> 422 payment_id', payment(1000, 0, { status: 'open' }), {}, 'payment_id', 'Only a paid payment can be refunded'],
    ['plan: a failed payment -> 422 payment_id', payment(1000, 0, { status: 'failed' }), {}, 'payment_id', undefined],
    ['money leaves once: a payment with a chargeback not won -> 422 payment_id', payment(1000, 0, { unwonChargebacks: 1 }), { amountMinor: 100 }, 'payment_id', 'A payment with a chargeback that is not won cannot be refunded'],
    ['plan: a payment not in EUR -> 422 amount.currency', payment(1000, 0, { currency: 'USD' }), {}, 'amount.currency', 'Refunds support only the currency eur'],
    ['plan: a requested currency other than eur -> 422 amount.currency', payment(1000), { amountMinor: 100, currency: 'gbp' }, 'amount.currency', 'Refunds support only the currency eur'],
    ['live: a payment whose capture failed took no money -> 422 payment_id', payment(1000, 0, { acquirer: { capture: 'failed' } }), {}, 'payment_id', "The payment's capture failed at the acquirer: it took no money to refund"],
  ])('%s', (_rule, paid, request, attribute, detail) => {
    // Act
    const error = ruleError(() => planRefundAmount(paid, request));
    // Assess
    expect(error.attribute).toBe(attribute);
    if (detail) expect(error.detail).toBe(detail);
  });
});

describe('Function: transitionRefund', () => {
  const ALLOWED = [
    'pending(held)->canceled',
    'pending(held)->pending',
    'pending(held)->processing',
    'pending->canceled',
    'pending->processing',
    'processing->failed',
    'processing->refunded',
  ];
  const everyMove = REFUND_STATUSES.flatMap((from) =>
    (from === 'pending' ? [false, true] : [false]).flatMap((onHold) => REFUND_STATUSES.map((to) => [`${from}${onHold ? '(held)' : ''}`, to, onHold, from] as const)),
  );

  test.each(everyMove.map(([label, to, onHold, from]) => [label, to, ALLOWED.includes(`${label}->${to}`) ? 'allowed' : 'refused (422 status)', onHold, from] as const))(
    'lifecycle: %s -> %s is %s',
    (_label, to, verdict, onHold, from) => {
      // Prepare
      const before = refund(from, onHold);
      // Act
      const run = () => transitionRefund(before, to, '2026-11-21T00:00:01.000Z');
      // Assess
      if (verdict === 'allowed') expect(run().refund).toMatchObject({ status: to, onHold: false, updatedAt: '2026-11-21T00:00:01.000Z' });
      else expect(ruleError(run).attribute).toBe('status');
    },
  );

  test('lifecycle: the table holds exactly the five moves of decisions §6 (covering a held refund is pending -> pending)', () => {
    // Act
    const moves = Object.entries(REFUND_MOVES).flatMap(([from, tos]) => tos.map((to) => `${from}->${to}`));
    // Assess
    expect(moves.sort()).toEqual(['pending->canceled', 'pending->pending', 'pending->processing', 'processing->failed', 'processing->refunded']);
  });

  test.each<[string, RefundStatus, boolean, RefundStatus, Pick<RefundMove, 'balanceDeltaMinor' | 'heldDelta' | 'refundedDeltaMinor'>]>([
    ['effects: covering a held refund reserves its amount and leaves the queue', 'pending', true, 'pending', { balanceDeltaMinor: -500, heldDelta: -1, refundedDeltaMinor: 0 }],
    ['effects: a covered refund to processing moves no money', 'pending', false, 'processing', { balanceDeltaMinor: 0, heldDelta: 0, refundedDeltaMinor: 0 }],
    ['effects: a held refund straight to processing is covered on the way', 'pending', true, 'processing', { balanceDeltaMinor: -500, heldDelta: -1, refundedDeltaMinor: 0 }],
    ['effects: processing -> failed gives the reservation back and no longer counts', 'processing', false, 'failed', { balanceDeltaMinor: 500, heldDelta: 0, refundedDeltaMinor: -500 }],
    ['effects: a covered refund canceled gives its reservation back', 'pending', false, 'canceled', { balanceDeltaMinor: 500, heldDelta: 0, refundedDeltaMinor: -500 }],
    ['effects: a held refund canceled gives nothing back (it took nothing) and leaves the queue', 'pending', true, 'canceled', { balanceDeltaMinor: 0, heldDelta: -1, refundedDeltaMinor: -500 }],
    ['effects: refunded keeps the reservation', 'processing', false, 'refunded', { balanceDeltaMinor: 0, heldDelta: 0, refundedDeltaMinor: 0 }],
  ])('%s', (_rule, from, onHold, to, effects) => {
    // Act
    const move = transitionRefund(refund(from, onHold), to, 't');
    // Assess
    expect(move).toMatchObject({ from, ...effects });
    expect(move.refund).toMatchObject({ status: to, onHold: false, updatedAt: 't' });
  });

  test('acquirer: a refunded refund the scheme returned becomes failed and gives its reservation back; nobody else may move it', () => {
    // Act
    const returned = transitionRefund(refund('refunded'), 'failed', 't', 'acquirer');
    // Assess
    expect(returned).toMatchObject({ from: 'refunded', balanceDeltaMinor: 500, heldDelta: 0, refundedDeltaMinor: -500, refund: { status: 'failed' } });
    expect(ruleError(() => transitionRefund(refund('refunded'), 'failed', 't')).attribute).toBe('status');
    expect(ruleError(() => transitionRefund(refund('refunded'), 'canceled', 't', 'acquirer')).attribute).toBe('status');
  });

  test.each<[string, RefundStatus[]]>([
    ['money: held -> covered -> processing -> refunded takes the amount once', ['pending', 'processing', 'refunded']],
    ['money: held -> covered -> processing -> failed takes nothing in the end', ['pending', 'processing', 'failed']],
    ['money: held -> covered -> canceled takes nothing in the end', ['pending', 'canceled']],
    ['money: held -> canceled takes nothing', ['canceled']],
  ])('%s', (_rule, path) => {
    // Prepare
    let current = refund('pending', true);
    const net = { balance: 0, held: 0, refunded: 500 };
    // Act
    for (const to of path) {
      const move = transitionRefund(current, to, 't');
      net.balance += move.balanceDeltaMinor;
      net.held += move.heldDelta;
      net.refunded += move.refundedDeltaMinor;
      current = move.refund;
    }
    // Assess
    const kept = current.status === 'refunded';
    expect(net).toEqual({ balance: kept ? -500 : 0, held: -1, refunded: kept ? 500 : 0 });
  });
});

describe('Function: isDueForProcessing', () => {
  const created = Date.parse('2026-11-21T00:00:00.000Z');
  test.each<[string, RefundStatus, boolean, number, boolean]>([
    ['job: a covered pending refund younger than the cancel window waits', 'pending', false, 299_999, false],
    ['job: a covered pending refund as old as the cancel window is processed', 'pending', false, 300_000, true],
    ['job: a held pending refund is never processed, however old', 'pending', true, 900_000, false],
    ['job: a processing refund is not processed again', 'processing', false, 900_000, false],
    ['job: a canceled refund is not processed', 'canceled', false, 900_000, false],
  ])('%s', (_rule, status, onHold, ageMs, expected) => {
    // Act
    const due = isDueForProcessing(refund(status, onHold), new Date(created + ageMs), 300);
    // Assess
    expect(due).toBe(expected);
  });
});

describe('Function: newRefund', () => {
  test('create: every new refund is pending and on hold until its amount is reserved; updated_at is its creation', () => {
    // Act
    const created = refund('pending', true);
    // Assess
    expect(created).toMatchObject({ status: 'pending', onHold: true, createdAt: '2026-11-21T00:00:00.000Z', updatedAt: '2026-11-21T00:00:00.000Z' });
  });
});

describe('Function: refundResource', () => {
  test('object: the contract fields; amount a two-digit string in lower-case eur; links api, checkout (the payment\'s link) and dashboard', () => {
    // Prepare
    const stored = refund('processing', false, { amountMinor: 1234, description: 'Damaged', metadata: { order: '42' }, webhookUrl: 'https://shop.example/hooks', createdAt: CREATED_AT });
    // Act
    const resource = refundResource(stored, urls);
    // Assess
    expect(resource).toEqual({
      id: stored.id,
      object: 'refund',
      payment_id: stored.paymentId,
      org_id: stored.orgId,
      acceptor_id: stored.acceptorId,
      created_at: CREATED_AT,
      mode: 'test',
      status: 'processing',
      on_hold: false,
      description: 'Damaged',
      webhook_url: 'https://shop.example/hooks',
      amount: { value: '12.34', currency: 'eur' },
      metadata: { order: '42' },
      acquirer_reference: null,
      links: {
        api: { href: `${urls.base}/v1/refunds/${stored.id}`, type: 'application/json' },
        checkout: { href: `${urls.checkout}/${stored.paymentLinkId}`, type: 'text/html' },
        dashboard: { href: `${urls.dashboard}/refunds/${stored.id}`, type: 'text/html' },
      },
    });
    expect(refundResourceSchema.safeParse(resource).success).toBe(true);
  });

  test.each<[string, Partial<Refund>, Record<string, unknown>]>([
    ['object: webhook_url null when none was given', {}, { webhook_url: null }],
    ['object: on_hold true while waiting for cover', { onHold: true }, { on_hold: true }],
    ['object: a whole amount keeps its .00', { amountMinor: 700 }, { amount: { value: '7.00', currency: 'eur' } }],
    ['object: acquirer_reference the acquirer\'s reference of a live refund once it took it', { mode: 'live', status: 'processing', acquirerReference: '8835850542288123' }, { acquirer_reference: '8835850542288123' }],
  ])('%s', (_rule, overrides, expected) => {
    // Act
    const resource = refundResource(refund('pending', false, overrides), urls);
    // Assess
    expect(resource).toMatchObject(expected);
  });

  test('pages: {has_more, data} of refund objects', () => {
    // Act
    const page = refundPage({ items: [refund('pending')], hasMore: false }, urls);
    // Assess
    expect(page).toEqual({ has_more: false, data: [refundResource(refund('pending'), urls)] });
  });

  test('balance: the balance object in lower-case currency', () => {
    // Act
    const balance = balanceResource(-250, 'EUR');
    // Assess
    expect(balance).toEqual({ object: 'balance', available: { value: '-2.50', currency: 'eur' } });
  });
});

describe('Function: refundEvent', () => {
  test.each(REFUND_STATUSES)('events: transactions.refund.%s carries the refund object, also to the refund\'s webhook_url', (status) => {
    // Prepare
    const stored = refund(status, false, { webhookUrl: 'https://shop.example/hooks' });
    const at = new Date('2026-11-21T00:05:00.000Z');
    // Act
    const event = refundEvent(stored, urls, at);
    // Assess
    expect(event.envelope).toMatchObject({ type: `transactions.refund.${status}`, triggered_at: at.toISOString(), data: refundResource(stored, urls) });
    expect(event.targetUrls).toEqual(['https://shop.example/hooks']);
    expect(REFUND_EVENTS[`transactions.refund.${status}`].data.safeParse(event.envelope.data).success).toBe(true);
  });
});

describe('Schema: refundCreateBody and refundTransitionBody (400 for the shape, 422 for a rule)', () => {
  test.each<[string, unknown, typeof InvalidRequestError | typeof BusinessRuleError, string | undefined]>([
    ['create: a currency other than eur -> 422 amount.currency', { amount: { value: '1.00', currency: 'usd' } }, BusinessRuleError, 'amount.currency'],
    ['create: a currency that is no code -> 400 amount.currency', { amount: { value: '1.00', currency: 'euro' } }, InvalidRequestError, 'amount.currency'],
    ['create: amount.value not positive -> 422 amount.value', { amount: { value: '0.00', currency: 'eur' } }, BusinessRuleError, 'amount.value'],
    ['create: amount.value off the pattern -> 400 amount.value', { amount: { value: '-1.00', currency: 'eur' } }, InvalidRequestError, 'amount.value'],
    ['create: amount.value above 999,999,999.99 -> 422 amount.value', { amount: { value: '1000000000.00', currency: 'eur' } }, BusinessRuleError, 'amount.value'],
    ['create: overcap_pct not a decimal fraction -> 400 overcap_pct', { overcap_pct: '20%' }, InvalidRequestError, 'overcap_pct'],
    ['create: allow_overcaptured not a boolean -> 400', { allow_overcaptured: 'yes' }, InvalidRequestError, 'allow_overcaptured'],
    ['create: description over 500 characters -> 422 description', { description: 'x'.repeat(501) }, BusinessRuleError, 'description'],
    ['create: webhook_url not an http(s) URL -> 400 webhook_url', { webhook_url: 'ftp://x.example/' }, InvalidRequestError, 'webhook_url'],
    ['create: metadata key __proto__ -> 422 metadata', { metadata: JSON.parse('{"__proto__": "x"}') }, BusinessRuleError, 'metadata'],
    ['create: metadata over 50 keys -> 422 metadata', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, BusinessRuleError, 'metadata'],
    ['create: a metadata value that is no string -> 400', { metadata: { order: 42 } }, InvalidRequestError, 'metadata.order'],
    ['create: an unknown field -> 400', { currency: 'eur' }, InvalidRequestError, 'currency'],
  ])('%s', (_rule, body, errorClass, attribute) => {
    // Act
    const error = thrownBy(() => parseWith(refundCreateBody, body, 'body'));
    // Assess
    expect(error).toBeInstanceOf(errorClass);
    expect((error as BusinessRuleError).attribute).toBe(attribute);
  });

  test.each<[string, unknown]>([
    ['create: an empty body (refund the whole rest)', {}],
    ['create: eur in upper case', { amount: { value: '1.00', currency: 'EUR' } }],
    ['create: every field', { amount: { value: '1.5', currency: 'eur' }, description: 'd', webhook_url: 'https://x.example/', metadata: { a: 'b' }, allow_overcaptured: true, overcap_pct: '0.25' }],
  ])('%s is accepted', (_rule, body) => {
    // Act
    const parsed = parseWith(refundCreateBody, body, 'body');
    // Assess
    expect(parsed).toEqual(body);
  });

  test.each(['pending', 'refunded2', ''])('test helper: a transition to %p -> 400 status', (status) => {
    // Act
    const error = thrownBy(() => parseWith(refundTransitionBody, { status }, 'body'));
    // Assess
    expect(error).toBeInstanceOf(InvalidRequestError);
  });
});
