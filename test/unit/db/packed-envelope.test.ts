import { marshall } from '@aws-sdk/util-dynamodb';
import { itemBytes, writeCharges, type TableKeys, type WireItem } from '../../../bin/local/partition-limits';
import { outboxItem, packEnvelope, storedEnvelope, withStoredEnvelope } from '../../../shared/db/outbox';
import { INDEXES } from '../../../shared/db/table';
import { newPaymentLink, linkEvent, PAYMENT_LINK_EVENT, paidPaymentLink } from '../../../shared/domain/payment-links';
import { PAYMENT_EVENT, paymentEvent, type Payment } from '../../../shared/domain/payments';
import { newEvent, type EventEnvelope } from '../../../shared/events';
import { publishedEventOf } from '../../../shared/webhooks/stream-records';
import { newId } from '../../../shared/ids';

/**
 * The event item's envelope, packed (shared/db/outbox.ts, decisions 152): small enough that a paid
 * checkout's events and each of their index entries take 1 write unit, read back in both forms.
 */
const urls = {
  base: 'https://payments.example.com',
  checkout: 'https://payments.example.com/checkout',
  dashboard: 'https://payments.example.com/dashboard',
  docs: 'https://payments.example.com/docs',
};
const keys: TableKeys = { table: ['PK', 'SK'], indexes: Object.values(INDEXES).map((index) => ({ name: index.name, keys: [index.pk, index.sk] })) };
const wire = (item: Record<string, unknown>) => marshall(item, { removeUndefinedValues: true }) as WireItem;

/** The three events of a paid checkout on an unlimited link with a description, as the service builds them. */
function paidCheckoutEvents() {
  const orgId = newId('organization');
  const link = newPaymentLink({
    id: newId('paymentLink'),
    orgId,
    mode: 'test',
    acceptorId: newId('acceptor'),
    body: { amount: { value: '30.00', currency: 'EUR' }, description: 'A yearly subscription to the magazine' },
    now: new Date(),
  });
  const paidAt = new Date().toISOString();
  const payment: Payment = {
    id: newId('payment'), orgId, mode: 'test', acceptorId: link.acceptorId, paymentLinkId: link.id, status: 'paid',
    amountMinor: 3000, currency: 'EUR', createdAt: paidAt, paidAt,
  };
  return [
    linkEvent(urls, PAYMENT_LINK_EVENT.checkoutRequested, link),
    linkEvent(urls, PAYMENT_LINK_EVENT.paymentCreated, paidPaymentLink(link, paidAt), { payment_id: payment.id }),
    paymentEvent(PAYMENT_EVENT.paid, payment, urls),
  ];
}

test("a paid checkout's events are items under 1 KB: 2 write units for the transactional put, 1 for each index entry", () => {
  const entries: number[] = [];
  for (const event of paidCheckoutEvents()) {
    const item = wire(outboxItem(event));
    expect(Buffer.byteLength(JSON.stringify(event.envelope))).toBeGreaterThan(700);
    expect(itemBytes(item)).toBeLessThan(1024);
    const charges = writeCharges(keys, { key: item, kind: 'put', transactional: true }, undefined, item);
    expect(charges[0]).toMatchObject({ resource: 'table', units: 2 });
    expect(charges.slice(1).map((charge) => charge.units)).toEqual(charges.slice(1).map(() => 1));
    entries.push(charges.length - 1);
  }
  // Each in the scope's events and its type's; the link's two also in `transactions.payment_link.*` (decisions 14).
  expect(entries).toEqual([3, 3, 2]);
});

test('a packed envelope reads back as the envelope it packed, and the item holds it as Binary', () => {
  for (const event of [...paidCheckoutEvents(), newEvent({ type: 'transactions.test', orgId: 'org_x', mode: 'live', data: { text: '€ "quoted" \u0001', list: [1, null, true] } })]) {
    const item = outboxItem(event);
    expect(item.envelope).toBeInstanceOf(Uint8Array);
    expect(storedEnvelope(item.envelope)).toEqual(event.envelope);
    expect(withStoredEnvelope(item)).toMatchObject({ envelope: event.envelope, orgId: event.orgId, type: event.envelope.type });
  }
});

test('an item written before packing (its envelope a map) reads as it is', () => {
  const [event] = paidCheckoutEvents();
  expect(storedEnvelope(JSON.parse(JSON.stringify(event.envelope)))).toEqual(event.envelope);
});

test('format 1 stays readable for as long as its items live: its dictionary does not change', () => {
  const envelope: EventEnvelope = {
    id: 'evt_01m8jcmt7pf8j1nbevxb9s2jw6',
    object: 'event',
    type: 'transactions.payment.paid',
    triggered_at: '2026-11-29T00:52:54.646Z',
    version: '2026-11-21',
    mode: 'test',
    data: { id: 'pay_01m8jcmt3skqes17hyz5ttswjs', object: 'payment', status: 'paid', amount: { value: '30.00', currency: 'EUR' } },
  };
  const packedByFormat1 = 'AatGuMfAMNciKzm3xLwgzSLLMC8ptawiybLYKKvcDFMfYacrYQ8AQ0NdI8sQAwMrUyMrUxM9MxOzKEx3ghQZKungiEV43oE52Lg4uzC12NA8o7LKtKSkuDyrmJhcpYMlORjjKCFqawE=';
  // Written by this test's first run; a change to the dictionary or the format fails it.
  expect(Buffer.from(packEnvelope(envelope)).toString('base64')).toBe(packedByFormat1);
  expect(storedEnvelope(Buffer.from(packedByFormat1, 'base64'))).toEqual(envelope);
});

test('an envelope packed in a format this code does not know is refused, not misread', () => {
  const packed = Buffer.from(packEnvelope(paidCheckoutEvents()[0].envelope));
  packed[0] = 9;
  expect(() => storedEnvelope(packed)).toThrow(/unknown format \(9\)/);
});

describe("the outbox processor's stream records carry both forms", () => {
  const record = (image: Record<string, unknown>) => ({ eventName: 'INSERT', dynamodb: { Keys: { PK: image.PK as { S: string }, SK: image.SK as { S: string } }, NewImage: image } });

  test("Lambda's record: a Binary attribute in base64 (DynamoDB's JSON form)", () => {
    const event = paidCheckoutEvents()[2];
    const image = wire(outboxItem(event)) as Record<string, { B?: Uint8Array }>;
    const lambdaImage = { ...image, envelope: { B: Buffer.from(image.envelope.B!).toString('base64') } };
    expect(publishedEventOf(record(lambdaImage))).toEqual({ envelope: event.envelope, orgId: event.orgId });
  });

  test("the Streams API's record: the Binary attribute as bytes", () => {
    const event = paidCheckoutEvents()[1];
    expect(publishedEventOf(record(wire(outboxItem(event))))).toEqual({ envelope: event.envelope, orgId: event.orgId });
  });

  test('an item written before packing: the envelope a map', () => {
    const event = paidCheckoutEvents()[0];
    expect(publishedEventOf(record(wire({ ...outboxItem(event), envelope: event.envelope })))).toEqual({ envelope: event.envelope, orgId: event.orgId });
  });
});
