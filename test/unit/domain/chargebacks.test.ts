import type { ChargebackRepository } from '../../../shared/db/chargeback-repository';
import type { PaymentRepository } from '../../../shared/db/payment-repository';
import type { BalanceRef } from '../../../shared/domain/balance';
import {
  CHARGEBACKS_EXCEED_PAYMENT,
  CHARGEBACK_EVENTS,
  CHARGEBACK_STATUSES,
  ChargebackListItemSchema,
  ChargebackSchema,
  DEFAULT_ACCOUNT_NUMBER,
  balanceDeltaOf,
  chargebackEvent,
  chargebackListItem,
  chargebackPage,
  chargebackResource,
  maskAccountNumber,
  openChargeback,
  transitionChargeback,
  type Chargeback,
  type ChargebackStatus,
  type ChargebackTrigger,
  type OpenChargebackInput,
} from '../../../shared/domain/chargebacks';
import { PAYMENT_STATUSES, type Payment } from '../../../shared/domain/payments';
import { BusinessRuleError, NotFoundError } from '../../../shared/errors';
import type { OutboxEvent } from '../../../shared/events';
import { createChargebackUseCases } from '../../../shared/use-cases/chargebacks';
import { aChargeback, aPayment, CREATED_AT, ruleError, urls } from './fixtures';

/**
 * Chargebacks (contract "Chargeback" and its state table; product-decisions §6 "money leaves
 * once", §7): the state table with its deadline, the balance movement of each status, the
 * opening rules and defaults, masking, and the output shapes.
 */

const DEADLINE = '2026-11-27T10:00:00.000Z';
const BEFORE_DEADLINE = new Date('2026-11-27T09:59:59.999Z');
const AT_DEADLINE = new Date(DEADLINE);
const AFTER_DEADLINE = new Date('2026-11-28T00:00:00.000Z');

const ALLOWED = ['open->accepted', 'open->disputed', 'disputed->won', 'disputed->lost'];
const everyMove = CHARGEBACK_STATUSES.flatMap((from) => CHARGEBACK_STATUSES.map((to) => [from, to] as [ChargebackStatus, ChargebackStatus]));

describe('Function: transitionChargeback', () => {
  test.each(everyMove.map(([from, to]) => [from, to, ALLOWED.includes(`${from}->${to}`) ? 'allowed' : 'refused (422 status)'] as const))(
    'state table: %s -> %s is %s',
    (from, to, verdict) => {
      // Prepare
      const chargeback = aChargeback({ status: from, ...(from === 'disputed' ? { dispute: { submitted_at: CREATED_AT, evidence: { product_description: 'Shipped' } } } : {}) });
      // Act
      const run = () => transitionChargeback(chargeback, to, BEFORE_DEADLINE);
      // Assess
      if (verdict === 'allowed') expect(run().status).toBe(to);
      else expect(ruleError(run).attribute).toBe('status');
    },
  );

  const ACQUIRER_ALLOWED = ['open->won', 'open->lost', 'disputed->won', 'disputed->lost', 'accepted->won', 'accepted->lost', 'won->lost'];
  test.each(everyMove.map(([from, to]) => [from, to, ACQUIRER_ALLOWED.includes(`${from}->${to}`) ? 'allowed' : 'refused (422 status)'] as const))(
    "acquirer: the scheme's ruling %s -> %s is %s, whatever the deadline",
    (from, to, verdict) => {
      // Prepare
      const chargeback = aChargeback({ status: from, deadlineAt: DEADLINE });
      // Act
      const run = () => transitionChargeback(chargeback, to, AFTER_DEADLINE, 'acquirer');
      // Assess
      if (verdict === 'allowed') expect(run().status).toBe(to);
      else expect(ruleError(run).attribute).toBe('status');
    },
  );

  test.each<[string, ChargebackStatus, ChargebackStatus, Date, 'action' | 'deadline', ChargebackStatus | undefined]>([
    ['accept: an open chargeback before deadline_at -> accepted', 'open', 'accepted', BEFORE_DEADLINE, 'action', 'accepted'],
    ['dispute: an open chargeback before deadline_at -> disputed', 'open', 'disputed', BEFORE_DEADLINE, 'action', 'disputed'],
    ['accept: at deadline_at it is too late -> 422 status', 'open', 'accepted', AT_DEADLINE, 'action', undefined],
    ['dispute: after deadline_at -> 422 status', 'open', 'disputed', AFTER_DEADLINE, 'action', undefined],
    ['deadline: an open chargeback at its deadline_at -> accepted automatically', 'open', 'accepted', AT_DEADLINE, 'deadline', 'accepted'],
    ['deadline: an open chargeback past its deadline_at -> accepted automatically', 'open', 'accepted', AFTER_DEADLINE, 'deadline', 'accepted'],
    ['deadline: an open chargeback before its deadline_at is not accepted -> 422', 'open', 'accepted', BEFORE_DEADLINE, 'deadline', undefined],
    ['deadline: never disputes -> 422', 'open', 'disputed', AFTER_DEADLINE, 'deadline', undefined],
    ['deadline: a disputed chargeback stays disputed -> 422', 'disputed', 'accepted', AFTER_DEADLINE, 'deadline', undefined],
    ['deadline: a ruling is no deadline move -> 422', 'disputed', 'won', AFTER_DEADLINE, 'deadline', undefined],
    ['ruling: the network rules after deadline_at too -> won', 'disputed', 'won', AFTER_DEADLINE, 'action', 'won'],
    ['ruling: the network rules after deadline_at too -> lost', 'disputed', 'lost', AFTER_DEADLINE, 'action', 'lost'],
  ])('%s', (_rule, from, to, now, trigger, expected) => {
    // Prepare
    const chargeback = aChargeback({ status: from, deadlineAt: DEADLINE, ...(from === 'disputed' ? { dispute: { submitted_at: CREATED_AT, evidence: { product_description: 'Shipped' } } } : {}) });
    // Act
    const run = () => transitionChargeback(chargeback, to, now, trigger);
    // Assess
    if (expected) expect(run().status).toBe(expected);
    else expect(ruleError(run).attribute).toBe('status');
  });

  test.each<[string, ChargebackStatus[], Chargeback['dispute'] | undefined]>([
    ['dispute: accepted carries no dispute', ['accepted'], undefined],
    ['dispute: disputed records submitted_at and the evidence', ['disputed'], { submitted_at: BEFORE_DEADLINE.toISOString(), evidence: { refund_policy: 'No refunds', documents: ['doc_1'] } }],
    ['dispute: won keeps it as submitted (the ruling is the status)', ['disputed', 'won'], { submitted_at: BEFORE_DEADLINE.toISOString(), evidence: { refund_policy: 'No refunds', documents: ['doc_1'] } }],
    ['dispute: lost keeps it as submitted (the ruling is the status)', ['disputed', 'lost'], { submitted_at: BEFORE_DEADLINE.toISOString(), evidence: { refund_policy: 'No refunds', documents: ['doc_1'] } }],
  ])('%s', (_rule, path, dispute) => {
    // Prepare
    const start = aChargeback();
    const evidence = { refund_policy: 'No refunds', documents: ['doc_1'] };
    // Act
    const end = path.reduce((chargeback, to) => transitionChargeback(chargeback, to, BEFORE_DEADLINE, 'action', to === 'disputed' ? evidence : undefined), start);
    // Assess
    expect(end.dispute).toEqual(dispute);
    expect(end).toMatchObject({ updatedAt: BEFORE_DEADLINE.toISOString(), createdAt: CREATED_AT, amountMinor: start.amountMinor });
    expect(start).toEqual(aChargeback());
  });
});

describe('Function: balanceDeltaOf', () => {
  test.each<[ChargebackStatus | undefined, ChargebackStatus, number]>([
    [undefined, 'open', -1000],
    ['open', 'accepted', 0],
    ['open', 'disputed', 0],
    ['disputed', 'won', 1000],
    ['disputed', 'lost', 0],
    ['open', 'won', 1000],
    ['won', 'lost', -1000],
  ])('balance: from %s to %s moves the balance by %i', (from, status, delta) => {
    // Act
    const moved = balanceDeltaOf(from, aChargeback({ status }));
    // Assess
    expect(moved).toBe(delta);
  });

  test.each<[string, ChargebackStatus[], ChargebackTrigger, number]>([
    ['money leaves once: open -> accepted takes the amount once', ['accepted'], 'action', -1000],
    ['money leaves once: open -> disputed -> lost takes the amount once', ['disputed', 'lost'], 'action', -1000],
    ['money leaves once: open -> disputed -> won gives it all back', ['disputed', 'won'], 'action', 0],
    ['money leaves once: the acquirer\'s open -> won -> lost (a second chargeback) takes the amount once', ['won', 'lost'], 'acquirer', -1000],
  ])('%s', (_rule, path, trigger, net) => {
    // Prepare
    const opened = aChargeback();
    // Act
    let chargeback = opened;
    let total = balanceDeltaOf(undefined, opened);
    for (const to of path) {
      const from = chargeback.status;
      chargeback = transitionChargeback(chargeback, to, BEFORE_DEADLINE, trigger);
      total += balanceDeltaOf(from, chargeback);
    }
    // Assess
    expect(total).toBe(net);
  });
});

describe('Function: openChargeback', () => {
  const NOW = new Date('2026-11-20T12:00:00.000Z');
  const open = (input: Partial<OpenChargebackInput> = {}, payment: Partial<Payment> = {}) =>
    openChargeback({ id: 'cb_new', payment: aPayment(payment), now: NOW, ...input });

  test.each<[string, Partial<OpenChargebackInput>, Partial<Payment>, string, string | undefined]>([
    ...PAYMENT_STATUSES.filter((status) => status !== 'paid').map(
      (status) => [`open: a payment that is ${status} -> 422 payment_id`, {}, { status }, 'payment_id', undefined] as [string, Partial<OpenChargebackInput>, Partial<Payment>, string, undefined],
    ),
    ['open: another currency than the payment\'s -> 422 amount.currency', { amount: { value: '1.00', currency: 'USD' } }, {}, 'amount.currency', undefined],
    ['open: more than the payment amount -> 422 amount.value', { amount: { value: '10.01', currency: 'EUR' } }, {}, 'amount.value', 'amount.value cannot exceed the payment amount'],
    ['open: an amount of zero takes nothing -> 422 amount.value', { amount: { value: '0.00', currency: 'EUR' } }, {}, 'amount.value', 'amount.value must be positive'],
    ['open: a negative amount would give money back -> 422 amount.value', { amount: { value: '-5.00', currency: 'EUR' } }, {}, 'amount.value', 'amount.value must be positive'],
    ['money leaves once: more than the payment has left after its chargebacks not won -> 422', { amount: { value: '6.00', currency: 'EUR' } }, { chargedBackMinor: 500 }, 'amount.value', CHARGEBACKS_EXCEED_PAYMENT],
    ['money leaves once: a second full chargeback (the default amount) -> 422', {}, { chargedBackMinor: 1000 }, 'amount.value', CHARGEBACKS_EXCEED_PAYMENT],
    ['money leaves once: one cent over what is left -> 422', { amount: { value: '0.01', currency: 'EUR' } }, { chargedBackMinor: 1000 }, 'amount.value', CHARGEBACKS_EXCEED_PAYMENT],
  ])('%s', (_rule, input, payment, attribute, detail) => {
    // Act
    const error = ruleError(() => open(input, payment));
    // Assess
    expect(error.attribute).toBe(attribute);
    if (detail) expect(error.detail).toBe(detail);
  });

  test.each<[string, Partial<OpenChargebackInput>, Partial<Payment>, number]>([
    ['open: without an amount, the payment\'s amount', {}, {}, 1000],
    ['open: a part of the payment', { amount: { value: '2.50', currency: 'EUR' } }, {}, 250],
    ['open: the currency in any letter case', { amount: { value: '2.50', currency: 'eur' } }, {}, 250],
    ['money leaves once: exactly what is left after the other chargebacks', { amount: { value: '5.00', currency: 'EUR' } }, { chargedBackMinor: 500 }, 500],
    ['decisions §6: a partly refunded payment can still be charged back in full', {}, { refundedMinor: 900 }, 1000],
  ])('%s', (_rule, input, payment, amountMinor) => {
    // Act
    const chargeback = open(input, payment);
    // Assess
    expect(chargeback).toMatchObject({ status: 'open', amountMinor, currency: 'EUR' });
  });

  test('open: the defaults: deadline_at 7 days on, the default reason, a generated acquirer block, the test card masked', () => {
    // Act
    const chargeback = open();
    // Assess
    expect(chargeback).toMatchObject({
      id: 'cb_new',
      orgId: aPayment().orgId,
      mode: 'test',
      acceptorId: aPayment().acceptorId,
      paymentId: aPayment().id,
      status: 'open',
      reason: { code: '4837', description: 'No cardholder authorization' },
      deadlineAt: '2026-11-27T12:00:00.000Z',
      consumerAccountNumber: maskAccountNumber(DEFAULT_ACCOUNT_NUMBER),
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
    });
    expect(chargeback.acquirer).toEqual({ name: 'Test Acquirer', reference: expect.stringMatching(/^[0-9]{23}$/), case_id: expect.stringMatching(/^CB[0-9]{10}$/) });
    expect(chargeback).not.toHaveProperty('dispute');
    expect(chargeback).not.toHaveProperty('paymentWebhookUrl');
  });

  test.each<[string, Partial<OpenChargebackInput>, Partial<Payment>, Partial<Chargeback>]>([
    ['open: a given deadline_at, stored with milliseconds and Z', { deadlineAt: '2026-12-01T10:00:00+01:00' }, {}, { deadlineAt: '2026-12-01T09:00:00.000Z' }],
    ['open: a given reason', { reason: { code: '13.1', description: 'Merchandise not received' } }, {}, { reason: { code: '13.1', description: 'Merchandise not received' } }],
    ['open: a given acquirer block', { acquirer: { name: 'adyen', reference: 'R1', case_id: 'C1' } }, {}, { acquirer: { name: 'adyen', reference: 'R1', case_id: 'C1' } }],
    ['open: a given account number is stored masked', { consumerAccountNumber: '5555555555554444' }, {}, { consumerAccountNumber: '5**************4' }],
    ['open: a live payment\'s chargeback names the acquirer without "Test"', {}, { mode: 'live' }, { mode: 'live', acquirer: expect.objectContaining({ name: 'Acquirer' }) }],
    ['open: the parent payment\'s webhook_url is kept for the chargeback\'s events', {}, { webhookUrl: 'https://shop.example/hooks' }, { paymentWebhookUrl: 'https://shop.example/hooks' }],
  ])('%s', (_rule, input, payment, expected) => {
    // Act
    const chargeback = open(input, payment);
    // Assess
    expect(chargeback).toMatchObject(expected);
  });
});

describe('Function: maskAccountNumber', () => {
  test.each([
    ['4111111111111111', '4**************1'],
    ['123', '1*3'],
    ['NL91ABNA0417164300', 'NL**ABNA*********0'],
    ['4111 1111 1111 1111', '4*** **** **** ***1'],
    ['12', '12'],
    ['7', '7'],
  ])('mask: %s -> %s (digits become asterisks, the first and the last character stay)', (value, masked) => {
    // Act
    const shown = maskAccountNumber(value);
    // Assess
    expect(shown).toBe(masked);
  });
});

describe('Function: chargebackListItem and chargebackResource', () => {
  const disputed = aChargeback({ status: 'disputed', dispute: { submitted_at: CREATED_AT, evidence: { product_description: 'Shipped' } }, currency: 'eur', amountMinor: 1250 });

  test('list item: exactly object, id, payment_id, status, reason, amount, deadline_at, created_at and links.api', () => {
    // Act
    const item = chargebackListItem(disputed, urls);
    // Assess
    expect(item).toEqual({
      object: 'chargeback',
      id: disputed.id,
      payment_id: disputed.paymentId,
      status: 'disputed',
      reason: disputed.reason,
      amount: { value: '12.50', currency: 'EUR' },
      deadline_at: disputed.deadlineAt,
      created_at: CREATED_AT,
      links: { api: { href: `${urls.base}/v1/chargebacks/${disputed.id}`, type: 'application/json' } },
    });
    expect(ChargebackListItemSchema.safeParse(item).success).toBe(true);
  });

  test('object: adds acquirer, dispute, the masked account number, updated_at and links.payment; currency upper case', () => {
    // Act
    const resource = chargebackResource(disputed, urls);
    // Assess
    expect(resource).toEqual({
      ...chargebackListItem(disputed, urls),
      acquirer: disputed.acquirer,
      dispute: disputed.dispute,
      consumer_account_number: '4**************1',
      updated_at: disputed.updatedAt,
      links: {
        api: { href: `${urls.base}/v1/chargebacks/${disputed.id}`, type: 'application/json' },
        payment: { href: `${urls.base}/v1/payments/${disputed.paymentId}`, type: 'application/json' },
      },
    });
    expect(ChargebackSchema.safeParse(resource).success).toBe(true);
  });

  test('object: no dispute member before the chargeback is disputed', () => {
    // Act
    const resource = chargebackResource(aChargeback(), urls);
    // Assess
    expect(resource).not.toHaveProperty('dispute');
    expect(ChargebackSchema.safeParse(resource).success).toBe(true);
  });

  test('pages: {has_more, data} of list items', () => {
    // Act
    const page = chargebackPage({ items: [disputed], hasMore: true }, urls);
    // Assess
    expect(page).toEqual({ has_more: true, data: [chargebackListItem(disputed, urls)] });
  });
});

describe('Function: chargebackEvent', () => {
  test.each(CHARGEBACK_STATUSES)('events: transactions.chargeback.%s carries the full object (a dispute\'s evidence by its documents only), triggered at updated_at, also to the payment\'s webhook_url', (status) => {
    // Prepare
    const chargeback = aChargeback({
      status,
      updatedAt: '2026-11-21T08:00:00.000Z',
      paymentWebhookUrl: 'https://shop.example/hooks',
      ...(['disputed', 'won', 'lost'].includes(status) ? { dispute: { submitted_at: CREATED_AT, evidence: { uncategorized_text: 'x'.repeat(20_000), documents: ['doc_1'] } } } : {}),
    });
    // Act
    const event = chargebackEvent(chargeback, urls);
    // Assess
    const { dispute, ...resource } = chargebackResource(chargeback, urls);
    const data = dispute ? { ...resource, dispute: { submitted_at: CREATED_AT, evidence: { documents: ['doc_1'] } } } : resource;
    expect(event.envelope).toMatchObject({ type: `transactions.chargeback.${status}`, triggered_at: '2026-11-21T08:00:00.000Z' });
    expect(event.envelope.data).toEqual(data);
    expect(event.targetUrls).toEqual(['https://shop.example/hooks']);
    expect(CHARGEBACK_EVENTS[`transactions.chargeback.${status}`].data.safeParse(event.envelope.data).success).toBe(true);
  });

  test('events: no per-object target when the payment has no webhook_url', () => {
    // Act
    const event = chargebackEvent(aChargeback(), urls);
    // Assess
    expect(event).not.toHaveProperty('targetUrls');
  });
});

describe('Use case: chargebacks.transition and acceptOverdue (in-memory chargeback store)', () => {
  /** The store's conditional move: written only while the stored status is still `from`. */
  function chargebackStore(stored: Chargeback[], concurrent?: (current: Chargeback) => Chargeback) {
    const byId = new Map(stored.map((chargeback) => [chargeback.id, chargeback]));
    const events: OutboxEvent[] = [];
    const credited: BalanceRef[] = [];
    let interleaved = concurrent;
    const chargebacks = {
      async saveTransition(from: ChargebackStatus, next: Chargeback, event: OutboxEvent) {
        if (interleaved) byId.set(next.id, interleaved(byId.get(next.id)!));
        interleaved = undefined;
        const current = byId.get(next.id);
        if (current?.status !== from) return { saved: false as const, current };
        byId.set(next.id, next);
        events.push(event);
        return { saved: true as const };
      },
      async *overdue(now: Date) {
        for (const chargeback of byId.values()) if (chargeback.status === 'open' && Date.parse(chargeback.deadlineAt) <= now.getTime()) yield chargeback;
      },
    };
    const useCases = createChargebackUseCases({
      chargebacks: chargebacks as unknown as ChargebackRepository,
      payments: { get: async () => undefined } as Pick<PaymentRepository, 'get'>,
      onBalanceCredited: async (ref) => credited.push(ref),
      now: () => BEFORE_DEADLINE,
      configuredUrls: () => urls,
    });
    return { useCases, events, credited, get: (id: string) => byId.get(id)! };
  }
  const disputed = aChargeback({ status: 'disputed', dispute: { submitted_at: CREATED_AT, evidence: { product_description: 'Shipped' } } });

  test('transition: written with its event; a won chargeback credits the balance back, once', async () => {
    // Prepare
    const store = chargebackStore([disputed]);
    // Act
    const won = await store.useCases.transition(disputed, 'won', urls);
    // Assess
    expect(store.get(disputed.id)).toEqual(won);
    expect(store.events.map((event) => event.envelope.type)).toEqual(['transactions.chargeback.won']);
    expect(store.credited).toEqual([{ orgId: disputed.orgId, mode: disputed.mode, currency: 'EUR' }]);
  });

  test('transition: lost credits nothing', async () => {
    // Prepare
    const store = chargebackStore([disputed]);
    // Act
    await store.useCases.transition(disputed, 'lost', urls);
    // Assess
    expect(store.credited).toEqual([]);
  });

  test('transition: moved meanwhile by another writer -> the move is checked again against what is stored: 422 status', async () => {
    // Prepare
    const store = chargebackStore([aChargeback()], (current) => transitionChargeback(current, 'accepted', BEFORE_DEADLINE));
    // Act
    const error = await store.useCases.transition(aChargeback(), 'disputed', urls).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(BusinessRuleError);
    expect(error).toMatchObject({ attribute: 'status' });
    expect(store.get(aChargeback().id).status).toBe('accepted');
    expect(store.events).toEqual([]);
  });

  test('transition: gone meanwhile -> 404', async () => {
    // Prepare
    const store = chargebackStore([]);
    // Act
    const error = await store.useCases.transition(aChargeback(), 'accepted', urls).catch((caught: unknown) => caught);
    // Assess
    expect(error).toBeInstanceOf(NotFoundError);
  });

  test('job: every open chargeback at or past deadline_at becomes accepted; the others are left; the count is what moved', async () => {
    // Prepare
    const overdue = aChargeback({ id: 'cb_overdue', deadlineAt: '2026-11-20T00:00:00.000Z' });
    const dueNow = aChargeback({ id: 'cb_due_now', deadlineAt: AT_DEADLINE.toISOString() });
    const future = aChargeback({ id: 'cb_future', deadlineAt: AFTER_DEADLINE.toISOString() });
    const otherOrganization = aChargeback({ id: 'cb_other', orgId: 'org_other', deadlineAt: '2026-11-20T00:00:00.000Z' });
    const store = chargebackStore([overdue, dueNow, future, otherOrganization]);
    // Act
    const processed = await store.useCases.acceptOverdue(AT_DEADLINE, { orgId: overdue.orgId, mode: 'test' });
    // Assess
    expect(processed).toBe(2);
    expect(['cb_overdue', 'cb_due_now', 'cb_future', 'cb_other'].map((id) => store.get(id).status)).toEqual(['accepted', 'accepted', 'open', 'open']);
    expect(store.events.map((event) => event.envelope.type)).toEqual(['transactions.chargeback.accepted', 'transactions.chargeback.accepted']);
  });

  test('job: a chargeback disputed between the query and the move is left disputed and not counted', async () => {
    // Prepare
    const overdue = aChargeback({ deadlineAt: '2026-11-20T00:00:00.000Z' });
    const store = chargebackStore([overdue], (current) => ({ ...current, status: 'disputed' }));
    // Act
    const processed = await store.useCases.acceptOverdue(AT_DEADLINE);
    // Assess
    expect(processed).toBe(0);
    expect(store.get(overdue.id).status).toBe('disputed');
  });
});
