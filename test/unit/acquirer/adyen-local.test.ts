import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { adyenClient } from '../../../shared/acquirer/adyen-client';
import { adyenNotifications } from '../../../shared/acquirer/adyen-notifications';
import { adyenPayments } from '../../../shared/acquirer/adyen-payments';
import { AcquirerRefusedError, AcquirerUnavailableError, type AcquirerNotification, type DefenseDocument, type DisputeAtAcquirer } from '../../../shared/domain/acquirer';
import { freePort } from '../../../bin/local/free-port';
import {
  authorisedPayment,
  CARDS,
  MERCHANT_ACCOUNT,
  notified,
  startAcquirerWorld,
  submitHostedForm,
  waitFor,
  type AcquirerWorld,
} from '../../support/acquirer';
import { browserAvailable, launchBrowser } from '../../support/browser';

type Authorized = Extract<AcquirerNotification, { kind: 'payment.authorized' }>;

const PDF: DefenseDocument = { typeCode: 'DefenseMaterial', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4\n% defense material\n') };

/**
 * The Adyen adapter against the local Adyen over real HTTP: every call goes through the
 * library's services and the adapter's transport, every notification through the adapter's
 * Basic-credential and HMAC checks at a notification endpoint.
 */
describe('Adyen adapter against the local Adyen', () => {
  let world: AcquirerWorld;

  beforeAll(async () => {
    world = await startAcquirerWorld();
  });
  afterAll(async () => {
    await world?.stop();
  });

  const hostedPayment = (paymentId: string, minor = 4990) =>
    world.payments.startHostedPayment({
      paymentId,
      amount: { minor, currency: 'EUR' },
      merchantAccount: MERCHANT_ACCOUNT,
      returnUrl: world.endpoint.returnUrl,
      expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    });

  const hasBrowser = browserAvailable();
  (hasBrowser ? describe : describe.skip)('hosted payment page in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    async function payInBrowser(url: string, holderName: string) {
      const page = await browser.newPage();
      try {
        await page.goto(url);
        await page.getByLabel('Name on card').fill(holderName);
        await page.getByLabel('Card number').fill(CARDS.visa.number);
        await page.getByLabel('Expiry month').fill(CARDS.visa.expiryMonth);
        await page.getByLabel('Expiry year').fill(CARDS.visa.expiryYear);
        await page.getByLabel('Security code').fill(CARDS.visa.cvc);
        await page.getByRole('button', { name: 'Pay', exact: true }).click();
        await page.waitForURL(/\/return\?/);
        return new URL(page.url());
      } finally {
        await page.close();
      }
    }

    test('paid: the page returns to returnUrl and the signed AUTHORISATION reads as payment.authorized', async () => {
      // Prepare
      const hosted = await hostedPayment('pay_browser_paid');
      // Act
      const returned = await payInBrowser(hosted.url, 'Ada Lovelace');
      // Assess
      expect(returned.searchParams.get('sessionId')).toBe(hosted.id);
      expect(returned.searchParams.get('sessionResult')).toBeTruthy();
      const authorised = await notified(world, 'payment.authorized', (notification) => notification.paymentId === 'pay_browser_paid');
      expect(authorised).toMatchObject({ amount: { minor: 4990, currency: 'EUR' }, merchantAccount: MERCHANT_ACCOUNT });
      expect(authorised.acquirerReference).toMatch(/^[A-Z0-9]{16}$/);
      expect(authorised.id).toMatch(new RegExp(`^AUTHORISATION:${authorised.acquirerReference}:true:`));
    });

    test('declined: the holder name DECLINED returns to returnUrl and reads as payment.refused', async () => {
      const hosted = await hostedPayment('pay_browser_declined');
      await payInBrowser(hosted.url, 'DECLINED');
      const refused = await notified(world, 'payment.refused', (notification) => notification.paymentId === 'pay_browser_declined');
      expect(refused.reason).toBe('Refused');
    });
  });

  test('hosted page: a card number that fails the Luhn check is refused on the page and nothing is notified', async () => {
    const hosted = await hostedPayment('pay_bad_card');
    const answer = await submitHostedForm(hosted.url, 'Ada Lovelace', { ...CARDS.visa, number: '4111 1111 1111 1112' });
    expect(answer.status).toBe(422);
    expect(answer.body).toContain('Invalid card number');
    // The session still takes a valid card afterwards: the refusal was the form's, not a payment.
    expect((await submitHostedForm(hosted.url, 'Ada Lovelace', CARDS.visa)).status).toBe(303);
    await notified(world, 'payment.authorized', (notification) => notification.paymentId === 'pay_bad_card');
    expect(world.endpoint.accepted().filter((notification) => 'paymentId' in notification && notification.paymentId === 'pay_bad_card')).toHaveLength(1);
  });

  test('hosted page: after the session\'s expiry the page takes no payment (410)', async () => {
    const hosted = await world.payments.startHostedPayment({
      paymentId: 'pay_expiring',
      amount: { minor: 100, currency: 'EUR' },
      merchantAccount: MERCHANT_ACCOUNT,
      returnUrl: world.endpoint.returnUrl,
      expiresAt: new Date(Date.now() + 500).toISOString(),
    });
    await waitFor(async () => ((await fetch(hosted.url)).status === 410 ? true : undefined), 'the session to expire');
    expect((await submitHostedForm(hosted.url, 'Ada Lovelace', CARDS.visa)).status).toBe(410);
  });

  test('hosted page: a session takes one payment; paying it again is refused', async () => {
    const hosted = await hostedPayment('pay_once');
    expect((await submitHostedForm(hosted.url, 'Ada Lovelace', CARDS.visa)).status).toBe(303);
    expect((await submitHostedForm(hosted.url, 'Ada Lovelace', CARDS.visa)).status).toBe(409);
  });

  test('capture: answered received, then CAPTURE reads as payment.captured', async () => {
    const payment = await authorisedPayment(world);
    const receipt = await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
    const captured = await notified(world, 'payment.captured', (notification) => notification.modificationReference === receipt.acquirerReference);
    expect(captured).toMatchObject({ paymentId: payment.paymentId, acquirerReference: payment.acquirerReference, amount: { minor: 2500, currency: 'EUR' } });
  });

  test('capture: a repeated capture of one authorisation is the same request (idempotency key), captured once', async () => {
    const payment = await authorisedPayment(world);
    const first = await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
    const again = await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
    expect(again).toEqual(first);
    await notified(world, 'payment.captured', (notification) => notification.modificationReference === first.acquirerReference);
    expect(world.endpoint.accepted().filter((notification) => notification.kind.startsWith('payment.capture') && 'paymentId' in notification && notification.paymentId === payment.paymentId)).toHaveLength(1);
  });

  test('cancel: CANCELLATION reads as payment.canceled; a capture after it fails', async () => {
    const payment = await authorisedPayment(world);
    const receipt = await world.payments.cancel(payment);
    await notified(world, 'payment.canceled', (notification) => notification.modificationReference === receipt.acquirerReference);
    const capture = await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
    const failed = await notified(world, 'payment.capture_failed', (notification) => notification.modificationReference === capture.acquirerReference);
    expect(failed.reason).toBe('Payment is not authorised');
  });

  test('cancel: a payment paid on two pages has two authorisations, and each is cancelled on its own', async () => {
    // Prepare: two hosted pages for one payment, both paid.
    const pages = [await hostedPayment('pay_twice'), await hostedPayment('pay_twice')];
    for (const page of pages) await submitHostedForm(page.url, 'Ada Lovelace', CARDS.visa);
    const authorisations = await waitFor(() => {
      const found = world.endpoint.accepted().filter((notification) => notification.kind === 'payment.authorized' && notification.paymentId === 'pay_twice').map((notification) => notification as Authorized);
      return found.length === 2 ? found : undefined;
    }, 'both authorisations');
    // Act
    const receipts = [];
    for (const { acquirerReference } of authorisations) receipts.push(await world.payments.cancel({ paymentId: 'pay_twice', acquirerReference, merchantAccount: MERCHANT_ACCOUNT }));
    // Assess
    expect(receipts[0].acquirerReference).not.toBe(receipts[1].acquirerReference);
    for (const receipt of receipts) await notified(world, 'payment.canceled', (notification) => notification.modificationReference === receipt.acquirerReference);
  });

  test('cancel: a captured payment cannot be cancelled (payment.cancel_failed)', async () => {
    const payment = await authorisedPayment(world);
    await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
    const receipt = await world.payments.cancel(payment);
    const failed = await notified(world, 'payment.cancel_failed', (notification) => notification.modificationReference === receipt.acquirerReference);
    expect(failed.paymentId).toBe(payment.paymentId);
  });

  describe('refunds', () => {
    test('refund: REFUND reads as refund.refunded with the refund id; the refund id is the idempotency key', async () => {
      const payment = await authorisedPayment(world);
      await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
      const request = { refundId: 're_once', payment, amount: { minor: 1000, currency: 'EUR' } };
      const receipt = await world.payments.refund(request);
      expect(await world.payments.refund(request)).toEqual(receipt);
      const refunded = await notified(world, 'refund.refunded', (notification) => notification.refundId === 're_once');
      expect(refunded).toMatchObject({ acquirerReference: receipt.acquirerReference, paymentAcquirerReference: payment.acquirerReference, amount: { minor: 1000, currency: 'EUR' } });
      expect(world.endpoint.accepted().filter((notification) => notification.kind.startsWith('refund.') && 'refundId' in notification && notification.refundId === 're_once')).toHaveLength(1);
    });

    test('refund: the test control fails the next refund (REFUND success false -> refund.failed)', async () => {
      const payment = await authorisedPayment(world);
      await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
      expect((await world.control('/_test/refunds/fail', { paymentPspReference: payment.acquirerReference })).status).toBe(200);
      await world.payments.refund({ refundId: 're_refused', payment, amount: { minor: 500, currency: 'EUR' } });
      const failed = await notified(world, 'refund.failed', (notification) => notification.refundId === 're_refused');
      expect(failed.reason).toBe('Refused');
      // Only the next one: the following refund goes through.
      await world.payments.refund({ refundId: 're_after', payment, amount: { minor: 500, currency: 'EUR' } });
      await notified(world, 'refund.refunded', (notification) => notification.refundId === 're_after');
    });

    test('refund: REFUND_FAILED after a REFUND success reads as refund.failed for the same refund', async () => {
      const payment = await authorisedPayment(world);
      await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
      await world.control('/_test/refunds/fail', { paymentPspReference: payment.acquirerReference, eventCode: 'REFUND_FAILED' });
      const receipt = await world.payments.refund({ refundId: 're_returned', payment, amount: { minor: 500, currency: 'EUR' } });
      const failed = await notified(world, 'refund.failed', (notification) => notification.refundId === 're_returned');
      expect(failed).toMatchObject({ acquirerReference: receipt.acquirerReference, reason: 'Refund Failed' });
      expect(failed.id).toMatch(new RegExp(`^REFUND_FAILED:${receipt.acquirerReference}:true:`));
    });

    test('refund: more than the captured rest fails (Insufficient balance on payment)', async () => {
      const payment = await authorisedPayment(world);
      await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
      await world.payments.refund({ refundId: 're_too_much', payment, amount: { minor: 2501, currency: 'EUR' } });
      const failed = await notified(world, 'refund.failed', (notification) => notification.refundId === 're_too_much');
      expect(failed.reason).toBe('Insufficient balance on payment');
    });
  });

  describe('disputes', () => {
    async function chargeback(card = CARDS.visa, body: object = {}) {
      const payment = await authorisedPayment(world, card);
      await world.payments.capture(payment, { minor: 2500, currency: 'EUR' });
      await notified(world, 'payment.captured', (notification) => notification.paymentId === payment.paymentId);
      const raised = await world.control('/_test/chargebacks', { pspReference: payment.acquirerReference, ...body });
      expect(raised.status).toBe(201);
      const dispute: DisputeAtAcquirer = { disputeReference: raised.body.disputePspReference, merchantAccount: MERCHANT_ACCOUNT };
      await waitFor(
        () => (world.endpoint.accepted().filter((notification) => notification.kind === 'dispute.opened' && notification.disputeReference === dispute.disputeReference).length === 2 ? true : undefined),
        'NOTIFICATION_OF_CHARGEBACK and CHARGEBACK',
      );
      return { payment, dispute };
    }
    const outcome = (dispute: DisputeAtAcquirer, result: 'won' | 'lost') => world.control(`/_test/disputes/${dispute.disputeReference}/outcome`, { outcome: result });

    test('chargeback raised: NOTIFICATION_OF_CHARGEBACK and CHARGEBACK read as dispute.opened for one dispute', async () => {
      const { payment, dispute } = await chargeback(CARDS.visa, { amount: { value: 1500, currency: 'EUR' }, reasonCode: '13.1' });
      const opened = world.endpoint.accepted().filter((notification) => notification.kind === 'dispute.opened' && notification.disputeReference === dispute.disputeReference);
      expect(opened.map((notification) => notification.id.split(':')[0])).toEqual(['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK']);
      for (const notification of opened) {
        expect(notification).toMatchObject({
          paymentId: payment.paymentId,
          paymentAcquirerReference: payment.acquirerReference,
          caseId: payment.acquirerReference,
          amount: { minor: 1500, currency: 'EUR' },
          reason: { code: '13.1' },
        });
        if (notification.kind !== 'dispute.opened') throw new Error('narrowing');
        expect(Date.parse(notification.deadlineAt!)).toBeGreaterThan(Date.now());
      }
    });

    test('accept: the dispute is accepted once; accepting or defending it again is refused', async () => {
      const { dispute } = await chargeback();
      await world.disputes.accept(dispute);
      await expect(world.disputes.accept(dispute)).rejects.toBeInstanceOf(AcquirerRefusedError);
      await expect(world.disputes.defend(dispute, 'SupplyDefenseMaterial')).rejects.toThrow(/it is accepted/);
      expect((await outcome(dispute, 'won')).status).toBe(422);
    });

    test('defense reasons: each reason names its documents, and is satisfied once its required ones are supplied', async () => {
      const { dispute } = await chargeback();
      const before = await world.disputes.defenseReasons(dispute);
      expect(before.map((reason) => [reason.code, reason.generic, reason.satisfied])).toEqual([
        ['SupplyDefenseMaterial', true, false],
        ['GoodsOrServicesProvided', false, false],
      ]);
      expect(before[1].documentTypes).toContainEqual({ code: 'ProofOfDelivery', requirement: 'one_or_more', supplied: false });
      await world.disputes.supplyDefenseDocument(dispute, PDF);
      const after = await world.disputes.defenseReasons(dispute);
      expect(after[0]).toEqual({ code: 'SupplyDefenseMaterial', generic: true, satisfied: true, documentTypes: [{ code: 'DefenseMaterial', requirement: 'required', supplied: true }] });
    });

    test('defend: a reason that does not apply, or without its required documents, is refused as the Dispute Service refuses it', async () => {
      const { dispute } = await chargeback();
      await expect(world.disputes.defend(dispute, 'NoSuchReason')).rejects.toThrow('Defense reason is not applicable: NoSuchReason');
      await expect(world.disputes.defend(dispute, 'SupplyDefenseMaterial')).rejects.toThrow(/Not all required defense documents/);
      await expect(world.disputes.supplyDefenseDocument(dispute, { ...PDF, typeCode: 'Selfie' })).rejects.toThrow(/Invalid defense document type/);
    });

    test('defended and won: a Visa dispute ends in PREARBITRATION_WON (dispute.won)', async () => {
      const { dispute } = await chargeback(CARDS.visa);
      await world.disputes.supplyDefenseDocument(dispute, PDF);
      await world.disputes.defend(dispute, 'SupplyDefenseMaterial');
      expect((await outcome(dispute, 'won')).body.eventCode).toBe('PREARBITRATION_WON');
      const won = await notified(world, 'dispute.won', (notification) => notification.disputeReference === dispute.disputeReference);
      expect(won.id).toMatch(new RegExp(`^PREARBITRATION_WON:${dispute.disputeReference}:true:`));
    });

    test('lost: a Visa dispute ends in PREARBITRATION_LOST (dispute.lost)', async () => {
      const { dispute } = await chargeback(CARDS.visa);
      expect((await outcome(dispute, 'lost')).body.eventCode).toBe('PREARBITRATION_LOST');
      await notified(world, 'dispute.lost', (notification) => notification.disputeReference === dispute.disputeReference);
    });

    test('won and lost: a Mastercard dispute ends in CHARGEBACK_REVERSED or SECOND_CHARGEBACK', async () => {
      const first = await chargeback(CARDS.mastercard);
      const second = await chargeback(CARDS.mastercard);
      expect((await outcome(first.dispute, 'won')).body.eventCode).toBe('CHARGEBACK_REVERSED');
      expect((await outcome(second.dispute, 'lost')).body.eventCode).toBe('SECOND_CHARGEBACK');
      await notified(world, 'dispute.won', (notification) => notification.disputeReference === first.dispute.disputeReference);
      await notified(world, 'dispute.lost', (notification) => notification.disputeReference === second.dispute.disputeReference);
      // A settled dispute is settled once.
      expect((await outcome(first.dispute, 'lost')).status).toBe(422);
    });

    test("documents: Adyen's formats and sizes (PDF up to 2 MB, JPEG), each file of its type, base64; a PNG, a larger PDF, an empty file, a PNG called JPEG or content that is not base64 is refused, and nothing of it is kept", async () => {
      // Prepare
      const { dispute } = await chargeback();
      const file = (signature: string, size: number) => Buffer.concat([Buffer.from(signature, 'latin1'), Buffer.alloc(size - signature.length, 0x20)]);
      const jpeg = { typeCode: 'DefenseMaterial', contentType: 'image/jpeg' as const, content: file('\xff\xd8\xff\xe0', 3_000_000) };
      const png = Buffer.from('\x89PNG\r\n\x1a\n', 'latin1');
      // Act
      await world.disputes.supplyDefenseDocument(dispute, { ...PDF, content: file('%PDF-1.4\n', 2_000_000) });
      await world.disputes.supplyDefenseDocument(dispute, jpeg);
      const refusal = (document: DefenseDocument) => world.disputes.supplyDefenseDocument(dispute, document).then(() => 'taken', (error: Error) => error.message);
      const refusals = [
        // What the service never sends (its port has no PNG), sent anyway: Adyen refuses it.
        await refusal({ ...PDF, contentType: 'image/png' as DefenseDocument['contentType'], content: png }),
        await refusal({ ...PDF, content: file('%PDF-1.4\n', 2_000_001) }),
        await refusal({ ...PDF, content: Buffer.alloc(0) }),
        await refusal({ ...jpeg, content: png }),
      ];
      const notBase64 = await fetch(`${world.local.url}/ca/services/DisputeService/v30/supplyDefenseDocument`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': world.settings.apiKey },
        body: JSON.stringify({ disputePspReference: dispute.disputeReference, merchantAccountCode: dispute.merchantAccount, defenseDocuments: [{ defenseDocumentTypeCode: 'DefenseMaterial', contentType: 'application/pdf', content: '%PDF-1.4 not base64!' }] }),
      });
      // Assess
      expect(refusals).toEqual([
        'The acquirer refused the request: Unsupported content type: image/png',
        'The acquirer refused the request: A defense document of type application/pdf may be at most 2 MB',
        'The acquirer refused the request: The defense document is empty',
        'The acquirer refused the request: The defense document is not a image/jpeg file',
      ]);
      expect(notBase64.status).toBe(400);
      const state = await (await fetch(`${world.local.url}/_test/disputes/${dispute.disputeReference}`)).json();
      expect(state.defenseDocuments.map((document: { contentType: string; size: number }) => [document.contentType, document.size])).toEqual([
        ['application/pdf', 2_000_000],
        ['image/jpeg', 3_000_000],
      ]);
      const second = await (await fetch(`${world.local.url}/_test/disputes/${dispute.disputeReference}/documents/1`)).json();
      expect(Buffer.from(second.content, 'base64').equals(jpeg.content)).toBe(true);
    });

    test('state control: what the dispute got (each document with its size and digest, the reason it was defended with)', async () => {
      // Prepare
      const { dispute } = await chargeback();
      // Act
      await world.disputes.supplyDefenseDocument(dispute, PDF);
      await world.disputes.defend(dispute, 'SupplyDefenseMaterial');
      const state = await (await fetch(`${world.local.url}/_test/disputes/${dispute.disputeReference}`)).json();
      // Assess
      expect(state).toEqual({
        disputePspReference: dispute.disputeReference,
        status: 'defended',
        defenseReasonCode: 'SupplyDefenseMaterial',
        defenseDocuments: [{ defenseDocumentTypeCode: 'DefenseMaterial', contentType: 'application/pdf', size: PDF.content.length, sha256: createHash('sha256').update(PDF.content).digest('hex') }],
      });
      expect((await fetch(`${world.local.url}/_test/disputes/ZZZZZZZZZZZZZZZZ`)).status).toBe(404);
    });

    test('unreachable control: the next requests about the dispute go unanswered (AcquirerUnavailableError), then it answers again; other disputes are answered throughout', async () => {
      // Prepare
      const [{ dispute }, other] = [await chargeback(), await chargeback()];
      // Act
      const control = await world.control(`/_test/disputes/${dispute.disputeReference}/unreachable`, { requests: 2 });
      const cut = [await world.disputes.defenseReasons(dispute).catch((error: unknown) => error), await world.disputes.accept(other.dispute), await world.disputes.accept(dispute).catch((error: unknown) => error)];
      // Assess
      expect(control.status).toBe(200);
      for (const error of [cut[0], cut[2]]) {
        expect(error).toBeInstanceOf(AcquirerUnavailableError);
        expect((error as AcquirerUnavailableError).failure).toBe('unreachable');
      }
      await world.disputes.accept(dispute);
      expect((await world.control('/_test/disputes/ZZZZZZZZZZZZZZZZ/unreachable', {})).status).toBe(404);
    });

    test('an unknown dispute is not found', async () => {
      await expect(world.disputes.accept({ disputeReference: 'ZZZZZZZZZZZZZZZZ', merchantAccount: MERCHANT_ACCOUNT })).rejects.toThrow('Could not find dispute');
    });
  });

  describe('notifications', () => {
    // A world of its own: the endpoint's failures must meet this test's batches and no others.
    let quiet: AcquirerWorld;
    beforeAll(async () => {
      quiet = await startAcquirerWorld();
    });
    afterAll(async () => {
      await quiet?.stop();
    });

    test('a batch answered other than [accepted] is retried until it is accepted, unchanged', async () => {
      quiet.endpoint.failNext(2);
      const payment = await authorisedPayment(quiet);
      const deliveries = quiet.endpoint.deliveries.filter((delivery) => delivery.body.includes(payment.paymentId));
      expect(deliveries.map((delivery) => delivery.answeredWith)).toEqual([500, 500, 200]);
      expect(new Set(deliveries.map((delivery) => delivery.body)).size).toBe(1);
    });

    test('bad HMAC: an adapter holding another key refuses the batch (signature), and so does a changed amount', () => {
      const delivery = quiet.endpoint.deliveries.find((candidate) => candidate.answeredWith === 200)!;
      const otherKey = adyenNotifications({ ...quiet.settings, hmacKey: 'ab'.repeat(32) });
      expect(otherKey.check(delivery)).toEqual({ accepted: false, reason: 'signature' });
      const tampered = delivery.body.replace(/"value":(\d+)/, (_whole, value: string) => `"value":${Number(value) + 1}`);
      expect(adyenNotifications(quiet.settings).check({ ...delivery, body: tampered })).toEqual({ accepted: false, reason: 'signature' });
    });

    test('credentials: a missing or wrong Authorization is refused before anything is read', () => {
      const delivery = quiet.endpoint.deliveries.find((candidate) => candidate.answeredWith === 200)!;
      const adapter = adyenNotifications(quiet.settings);
      expect(adapter.check({ ...delivery, authorization: undefined })).toEqual({ accepted: false, reason: 'credentials' });
      const wrong = `Basic ${Buffer.from(`${quiet.settings.username}:nope`).toString('base64')}`;
      expect(adapter.check({ ...delivery, authorization: wrong })).toEqual({ accepted: false, reason: 'credentials' });
      expect(adapter.check({ authorization: wrong, body: 'not json' })).toEqual({ accepted: false, reason: 'credentials' });
    });
  });

  describe('errors', () => {
    test('the local Adyen refusing the request (unknown payment, 422) is AcquirerRefusedError with its code', async () => {
      const error = await world.payments.capture({ paymentId: 'pay_x', acquirerReference: 'ZZZZZZZZZZZZZZZZ', merchantAccount: MERCHANT_ACCOUNT }, { minor: 100, currency: 'EUR' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AcquirerRefusedError);
      expect(error).toMatchObject({ code: '167', detail: 'The acquirer refused the request: Original pspReference required for this operation' });
    });

    test('a merchant account the API key may not use (403 901) is AcquirerRefusedError, for payments and disputes alike', async () => {
      const elsewhere = { paymentId: 'pay_x', acquirerReference: 'ZZZZZZZZZZZZZZZZ', merchantAccount: 'SomeoneElseECOM' };
      await expect(world.payments.refund({ refundId: 're_elsewhere', payment: elsewhere, amount: { minor: 100, currency: 'EUR' } })).rejects.toMatchObject({ constructor: AcquirerRefusedError, code: '901' });
      await expect(world.disputes.accept({ disputeReference: 'ZZZZZZZZZZZZZZZZ', merchantAccount: 'SomeoneElseECOM' })).rejects.toMatchObject({ constructor: AcquirerRefusedError, code: '901' });
    });

    test('a wrong API key (401) is AcquirerUnavailableError: the service cannot use the acquirer until it is fixed', async () => {
      const payments = adyenPayments(adyenClient({ apiKey: 'wrong', environment: 'test', endpoint: world.local.url }));
      await expect(payments.cancel({ paymentId: 'pay_x', acquirerReference: 'ZZZZZZZZZZZZZZZZ', merchantAccount: MERCHANT_ACCOUNT })).rejects.toMatchObject({
        constructor: AcquirerUnavailableError,
        failure: 'HTTP 401',
      });
    });

    test('nothing listening is AcquirerUnavailableError (unreachable)', async () => {
      const payments = adyenPayments(adyenClient({ apiKey: world.settings.apiKey, environment: 'test', endpoint: `http://127.0.0.1:${await freePort()}` }));
      await expect(payments.startHostedPayment({ paymentId: 'pay_x', amount: { minor: 100, currency: 'EUR' }, merchantAccount: MERCHANT_ACCOUNT, returnUrl: 'https://example.com', expiresAt: new Date().toISOString() })).rejects.toMatchObject({
        constructor: AcquirerUnavailableError,
        failure: 'unreachable',
        retryAfterSeconds: 5,
      });
    });

    test('a 503 with Retry-After, and an answer slower than the timeout, are AcquirerUnavailableError', async () => {
      const server = createServer((request, response) => {
        // A cancel is never answered (the connection is closed with the server).
        if (request.url?.endsWith('/cancels')) return;
        response.writeHead(503, { 'retry-after': '30', 'content-type': 'application/json' });
        response.end('{"status":503,"errorCode":"000","message":"Service unavailable","errorType":"internal"}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const payments = adyenPayments(adyenClient({ apiKey: 'key', environment: 'test', endpoint, timeoutMs: 200 }));
        const payment = { paymentId: 'pay_x', acquirerReference: 'ZZZZZZZZZZZZZZZZ', merchantAccount: MERCHANT_ACCOUNT };
        await expect(payments.capture(payment, { minor: 100, currency: 'EUR' })).rejects.toMatchObject({ constructor: AcquirerUnavailableError, failure: 'HTTP 503', retryAfterSeconds: 30 });
        await expect(payments.cancel(payment)).rejects.toMatchObject({ constructor: AcquirerUnavailableError, failure: 'timeout' });
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });
  });
});
