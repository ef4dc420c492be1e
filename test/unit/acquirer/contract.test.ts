import { adyenContract } from '../../../bin/local/adyen/contract';
import { pspReference } from '../../../bin/local/adyen/ledger';
import { authorisedPayment, CARDS, MERCHANT_ACCOUNT, notified, startAcquirerWorld, waitFor, type AcquirerWorld } from '../../support/acquirer';

/**
 * Both sides of the wire against Adyen's vendored OpenAPI documents (a validator, no shapes
 * written here): every request the adapter sent and every answer the local Adyen gave, through
 * a recording proxy, and every notification batch the local Adyen sent, against the webhook of
 * its event code. The traffic is one run of every flow the adapter has.
 */
describe('Adyen contract: both sides of the wire validate against the vendored documents', () => {
  const contract = adyenContract();
  let world: AcquirerWorld;
  let adversary: { status: number; body: any };

  /** An item written by a test, as anyone holding the notification credentials and HMAC key could. */
  const forgedItem = (eventCode: string, originalReference: string) => ({
    eventCode,
    pspReference: pspReference(),
    originalReference,
    merchantAccountCode: 'SomeoneElseECOM',
    merchantReference: 'pay_forged',
    eventDate: '2026-11-28T10:00:00+01:00',
    success: 'true',
    amount: { value: 1, currency: 'EUR' },
  });

  beforeAll(async () => {
    world = await startAcquirerWorld();
    const euros = (minor: number) => ({ minor, currency: 'EUR' });
    // Paid, captured, partly refunded (once refused by the test control, once returned by the scheme).
    const paid = await authorisedPayment(world, CARDS.visa, 3000);
    await world.payments.capture(paid, euros(3000));
    await world.payments.refund({ refundId: 're_contract_1', payment: paid, amount: euros(500) });
    await world.control('/_test/refunds/fail', { paymentPspReference: paid.acquirerReference });
    await world.payments.refund({ refundId: 're_contract_2', payment: paid, amount: euros(500) });
    await world.control('/_test/refunds/fail', { paymentPspReference: paid.acquirerReference, eventCode: 'REFUND_FAILED' });
    await world.payments.refund({ refundId: 're_contract_3', payment: paid, amount: euros(500) });
    // Authorised then cancelled; refused on the page.
    await world.payments.cancel(await authorisedPayment(world, CARDS.mastercard));
    const declined = await world.payments.startHostedPayment({ paymentId: 'pay_declined', amount: euros(100), merchantAccount: MERCHANT_ACCOUNT, returnUrl: world.endpoint.returnUrl, expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await fetch(declined.url, { method: 'POST', body: new URLSearchParams({ holderName: 'DECLINED', ...CARDS.visa }), redirect: 'manual' });
    // Disputed: defended and won (Visa), accepted, lost (Mastercard, so both schemes' endings).
    const disputed = async (card = CARDS.visa) => {
      const payment = await authorisedPayment(world, card);
      await world.payments.capture(payment, euros(2500));
      await notified(world, 'payment.captured', (notification) => notification.paymentId === payment.paymentId);
      const raised = await world.control('/_test/chargebacks', { pspReference: payment.acquirerReference });
      return { disputeReference: raised.body.disputePspReference as string, merchantAccount: MERCHANT_ACCOUNT };
    };
    const defended = await disputed();
    await world.disputes.defenseReasons(defended);
    await world.disputes.defend(defended, 'SupplyDefenseMaterial').catch(() => undefined);
    await world.disputes.supplyDefenseDocument(defended, { typeCode: 'DefenseMaterial', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 evidence') });
    await world.disputes.defend(defended, 'SupplyDefenseMaterial');
    await world.control(`/_test/disputes/${defended.disputeReference}/outcome`, { outcome: 'won' });
    await world.disputes.accept(await disputed());
    const lost = await disputed(CARDS.mastercard);
    await world.control(`/_test/disputes/${lost.disputeReference}/outcome`, { outcome: 'lost' });
    // Refusals: an unknown payment (422), a merchant account the key may not use (403) and a wrong API key (401).
    await world.payments.startHostedPayment({ paymentId: 'pay_elsewhere', amount: euros(100), merchantAccount: 'SomeoneElseECOM', returnUrl: world.endpoint.returnUrl, expiresAt: new Date(Date.now() + 60_000).toISOString() }).catch(() => undefined);
    await world.payments.capture({ paymentId: 'pay_unknown', acquirerReference: 'ZZZZZZZZZZZZZZZZ', merchantAccount: MERCHANT_ACCOUNT }, euros(1)).catch(() => undefined);
    await fetch(`${world.proxy.url}/v71/payments/${paid.acquirerReference}/cancels`, { method: 'POST', headers: { 'x-api-key': 'wrong', 'content-type': 'application/json' }, body: JSON.stringify({ merchantAccount: MERCHANT_ACCOUNT }) });
    await waitFor(() => (world.endpoint.accepted().some((notification) => notification.kind === 'dispute.lost') ? true : undefined), 'the last notification');
    // The test control `POST /_test/notifications`: two items as one batch, as Adyen's "test notification" sends them.
    adversary = await world.control('/_test/notifications', { notificationItems: [{ NotificationRequestItem: forgedItem('CAPTURE_FAILED', paid.acquirerReference) }, { NotificationRequestItem: forgedItem('CHARGEBACK_REVERSED', paid.acquirerReference) }] });
  }, 60_000);
  afterAll(async () => {
    await world?.stop();
  });

  test('every request the adapter sent validates against its operation in the documents', () => {
    const sent = world.proxy.exchanges.filter((exchange) => exchange.headers['x-api-key'] === world.settings.apiKey);
    expect(new Set(sent.map((exchange) => contract.operation(exchange.method, exchange.path)?.operationId))).toEqual(
      new Set([
        'post-sessions',
        'post-payments-paymentPspReference-captures',
        'post-payments-paymentPspReference-cancels',
        'post-payments-paymentPspReference-refunds',
        'post-retrieveApplicableDefenseReasons',
        'post-supplyDefenseDocument',
        'post-defendDispute',
        'post-acceptDispute',
      ]),
    );
    for (const exchange of sent) {
      const operation = contract.operation(exchange.method, exchange.path)!;
      expect({ [exchange.path]: contract.problems(operation.document, operation.request, JSON.parse(exchange.requestBody)) }).toEqual({ [exchange.path]: [] });
    }
  });

  test('modifications carry an idempotency key: the refund id for a refund, the authorisation for a capture or cancel', () => {
    const keys = world.proxy.exchanges.filter((exchange) => /\/(captures|cancels|refunds)$/.test(exchange.path) && exchange.headers['x-api-key'] === world.settings.apiKey).map((exchange) => exchange.headers['idempotency-key']);
    expect(keys).toEqual(expect.arrayContaining(['re_contract_1', 're_contract_2', 're_contract_3', expect.stringMatching(/^[A-Z0-9]{16}\.capture$/), expect.stringMatching(/^[A-Z0-9]{16}\.cancel$/)]));
    expect(keys.every((key) => typeof key === 'string' && key.length <= 64)).toBe(true);
  });

  test('every answer of the local Adyen validates against the operation\'s schema for its status (ServiceError for a refusal)', () => {
    const statuses = new Set<number>();
    for (const exchange of world.proxy.exchanges) {
      const operation = contract.operation(exchange.method, exchange.path)!;
      statuses.add(exchange.status);
      expect({ [`${exchange.status} ${exchange.path}`]: contract.problems(operation.document, operation.response(exchange.status), JSON.parse(exchange.responseBody)) }).toEqual({
        [`${exchange.status} ${exchange.path}`]: [],
      });
    }
    expect([...statuses].sort()).toEqual([200, 201, 401, 403, 422]);
  });

  test('every notification batch validates against the webhook of its event code', () => {
    const batches = world.endpoint.deliveries.map((delivery) => JSON.parse(delivery.body));
    const events = new Set(batches.flatMap((batch) => batch.notificationItems.map((item: any) => `${item.NotificationRequestItem.eventCode}:${item.NotificationRequestItem.success}`)));
    expect(events).toEqual(
      new Set([
        'AUTHORISATION:true',
        'AUTHORISATION:false',
        'CAPTURE:true',
        'CANCELLATION:true',
        'REFUND:true',
        'REFUND:false',
        'REFUND_FAILED:true',
        'NOTIFICATION_OF_CHARGEBACK:true',
        'CHARGEBACK:true',
        'PREARBITRATION_WON:true',
        'SECOND_CHARGEBACK:true',
        'CAPTURE_FAILED:true',
        'CHARGEBACK_REVERSED:true',
      ]),
    );
    for (const batch of batches) expect(contract.notificationProblems(batch)).toEqual([]);
  });

  test('a deliberately broken request fails the documents, and the local Adyen refuses it with a documented ServiceError', async () => {
    const refund = world.proxy.exchanges.find((exchange) => exchange.path.endsWith('/refunds'))!;
    const operation = contract.operation('POST', refund.path)!;
    const broken = { ...JSON.parse(refund.requestBody), amount: { value: '5.00', currency: 'EUR' }, merchantAccount: undefined, note: 'not in the schema' };
    expect(contract.problems('checkout', operation.request, JSON.parse(JSON.stringify(broken)))).toEqual(
      expect.arrayContaining(["/ must have required property 'merchantAccount'", '/ must NOT have additional properties', '/amount/value must be integer']),
    );
    const answer = await fetch(`${world.local.url}${refund.path}`, { method: 'POST', headers: { 'x-api-key': world.settings.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(broken) });
    expect(answer.status).toBe(422);
    const body = await answer.json();
    expect(body).toMatchObject({ status: 422, errorCode: '100', message: "Required field 'merchantAccount' is not provided.", errorType: 'validation' });
    expect(contract.problems('checkout', operation.response(422), body)).toEqual([]);
    const typed = await fetch(`${world.local.url}${refund.path}`, { method: 'POST', headers: { 'x-api-key': world.settings.apiKey, 'content-type': 'application/json' }, body: JSON.stringify({ ...broken, merchantAccount: MERCHANT_ACCOUNT }) });
    expect(typed.status).toBe(400);
    expect(await typed.json()).toMatchObject({ status: 400, errorCode: '702', errorType: 'validation' });
  });

  test('a broken notification batch fails the documents', () => {
    const batch = JSON.parse(world.endpoint.deliveries[0].body);
    batch.notificationItems[0].NotificationRequestItem.amount.value = '30.00';
    delete batch.notificationItems[0].NotificationRequestItem.merchantReference;
    expect(contract.notificationProblems(batch)).toEqual(
      expect.arrayContaining(["/notificationItems/0/NotificationRequestItem must have required property 'merchantReference'", '/notificationItems/0/NotificationRequestItem/amount/value must be integer']),
    );
  });

  describe('POST /_test/notifications (product-decisions §12)', () => {
    const delivered = (item: { pspReference: string }) => world.endpoint.deliveries.find((delivery) => delivery.body.includes(item.pspReference));

    test('sends the items as one batch with the configured credentials, each signed with the configured key, and answers the receiver\'s status and body', async () => {
      // Prepare
      const items = [forgedItem('REFUND', 'AAAAAAAAAAAAAAAA'), forgedItem('REFUND_FAILED', 'AAAAAAAAAAAAAAAA')];
      // Act
      const answer = await world.control('/_test/notifications', { notificationItems: items.map((item) => ({ NotificationRequestItem: item })), live: 'false' });
      // Assess
      expect(answer).toEqual({ status: 200, body: { status: 200, body: '[accepted]' } });
      const delivery = delivered(items[0])!;
      expect(delivery).toBe(delivered(items[1]));
      expect(delivery.authorization).toBe(`Basic ${Buffer.from(`${world.settings.username}:${world.settings.password}`).toString('base64')}`);
      expect(delivery.check).toMatchObject({ accepted: true, notifications: [{ kind: 'refund.refunded', merchantAccount: 'SomeoneElseECOM' }, { kind: 'refund.failed' }] });
      expect(adversary).toEqual({ status: 200, body: { status: 200, body: '[accepted]' } });
    });

    test('an item that carries a signature already is sent as it is, once: the receiver\'s refusal is the answer, never retried', async () => {
      // Prepare
      const item = { ...forgedItem('CAPTURE', 'AAAAAAAAAAAAAAAA'), additionalData: { hmacSignature: 'bm90IHRoZSBzaWduYXR1cmU=' } };
      // Act
      const answer = await world.control('/_test/notifications', { notificationItems: [{ NotificationRequestItem: item }] });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Assess
      expect(answer).toEqual({ status: 200, body: { status: 401, body: 'refused' } });
      expect(world.endpoint.deliveries.filter((delivery) => delivery.body.includes(item.pspReference))).toHaveLength(1);
      expect(JSON.parse(delivered(item)!.body).notificationItems[0].NotificationRequestItem.additionalData.hmacSignature).toBe('bm90IHRoZSBzaWduYXR1cmU=');
    });

    test('a batch Adyen would not send (against the Webhooks document) is refused with a ServiceError and nothing is sent', async () => {
      // Prepare
      const item = { ...forgedItem('CAPTURE', 'AAAAAAAAAAAAAAAA'), amount: { value: '0.01', currency: 'EUR' } };
      // Act
      const answer = await world.control('/_test/notifications', { notificationItems: [{ NotificationRequestItem: item }] });
      // Assess
      expect(answer).toMatchObject({ status: 400, body: { status: 400, errorCode: '702', errorType: 'validation' } });
      expect(answer.body.message).toContain('/notificationItems/0/NotificationRequestItem/amount/value must be integer');
      expect(delivered(item)).toBeUndefined();
    });
  });
});
