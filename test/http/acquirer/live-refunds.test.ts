import { pspReference } from '../../../bin/local/adyen/ledger';
import { acquirerControl, acquirerWhen, notify, paidLivePayment, paidWithCapturePending, paymentWhen, waitFor, withLiveStack } from '../../support/live';
import { createPerson, dashboardBrowser } from '../../support/dashboard';
import { balanceOf } from '../../support/refunds';
import type { Api, Merchant, TestStack } from '../../support/stack';

/**
 * Live refunds (product-decisions §12): the minute job `process-refunds` sends a covered refund
 * to the acquirer when it moves it to `processing` (the refund id as idempotency key), and the
 * acquirer's REFUND notification settles it: `refunded`, or `failed` with its reservation given back.
 */
describe('live refunds through the acquirer', () => {
  let stack: TestStack;
  let merchant: Merchant;
  let live: Api;

  withLiveStack((started) => ({ stack, merchant, live } = started), { REFUND_CANCEL_WINDOW_SECONDS: '0' });

  const refundWhen = (id: string, status: string) =>
    waitFor(async () => {
      const { body } = await live.get(`/v1/refunds/${id}`);
      return body.status === status ? body : undefined;
    }, `refund ${id} ${status}`, 30_000);

  test('live refund: the job sends it to the acquirer, and the REFUND notification makes it refunded', async () => {
    // Prepare
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const refund = (await live.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '10.00', currency: 'eur' } })).body;
    expect(refund).toMatchObject({ status: 'pending' });

    // Act
    await stack.runMinuteJobs();

    // Assess
    const refunded = await refundWhen(refund.id, 'refunded');
    expect(await acquirerWhen(stack, payment.acquirer_reference, (state) => state.refunded === 1000, 'the refund at the acquirer')).toMatchObject({ refunded: 1000 });
    expect(refund.acquirer_reference).toBeNull();
    expect(refunded.acquirer_reference).toMatch(/^[A-Z0-9]{16}$/);
    const events = (await live.get('/v1/events?type=transactions.refund.*&limit=100')).body.data.filter((event: any) => event.data.id === refund.id);
    expect(events.find((event: any) => event.type === 'transactions.refund.refunded').data.acquirer_reference).toBe(refunded.acquirer_reference);
  });

  test('the dashboard shows what Adyen\'s reports show: the payment\'s acquirer reference and capture, the refund\'s acquirer reference', async () => {
    // Prepare
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const refund = (await live.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '2.00', currency: 'eur' } })).body;
    await stack.runMinuteJobs();
    const refunded = await refundWhen(refund.id, 'refunded');
    const browser = dashboardBrowser(stack);
    const cookie = await browser.sessionOf(await createPerson(stack, merchant.orgId, 'owner'), 'live');

    // Act
    const paymentPage = await browser.get(`/dashboard/payments/${payment.id}`, cookie);
    const refundPage = await browser.get(`/dashboard/refunds/${refund.id}`, cookie);

    // Assess
    expect(paymentPage.html).toMatch(new RegExp(`data-field="acquirer_reference"><code>${payment.acquirer_reference}</code>`));
    expect(paymentPage.html).toMatch(new RegExp(`data-field="capture"><span class="badge good">captured</span> <code>${payment.capture.acquirer_reference}</code>`));
    expect(refundPage.html).toMatch(new RegExp(`data-field="acquirer_reference"><code>${refunded.acquirer_reference}</code>`));
    // A person is created and signed in: a password hashed twice at scrypt's cost.
  }, 60_000);

  test('live refund refused by the acquirer (REFUND success false) -> failed, its reservation given back', async () => {
    // Prepare
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const before = await balanceOf(stack, merchant, 'live');
    const refund = (await live.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '7.50', currency: 'eur' } })).body;
    expect(await balanceOf(stack, merchant, 'live')).toBe(before - 750);
    expect((await acquirerControl(stack, '/_test/refunds/fail', { paymentPspReference: payment.acquirer_reference })).status).toBe(200);

    // Act
    await stack.runMinuteJobs();

    // Assess
    await refundWhen(refund.id, 'failed');
    expect(await balanceOf(stack, merchant, 'live')).toBe(before);
    expect((await live.post(`/v1/payments/${payment.id}/refunds`, {})).body).toMatchObject({ amount: { value: '25.00' } });
  });

  test('live refund returned by the scheme (REFUND success, then REFUND_FAILED) -> refunded, then failed with its reservation given back', async () => {
    // Prepare
    const payment = await paidLivePayment(stack, live, merchant.acceptorId);
    const before = await balanceOf(stack, merchant, 'live');
    const refund = (await live.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '5.00', currency: 'eur' } })).body;
    await acquirerControl(stack, '/_test/refunds/fail', { paymentPspReference: payment.acquirer_reference, eventCode: 'REFUND_FAILED' });

    // Act
    await stack.runMinuteJobs();

    // Assess
    await refundWhen(refund.id, 'failed');
    expect(await balanceOf(stack, merchant, 'live')).toBe(before);
    const statuses = (await live.get('/v1/events?type=transactions.refund.*&limit=100')).body.data.filter((event: any) => event.data.id === refund.id).map((event: any) => event.data.status);
    expect(statuses.reverse()).toEqual(['pending', 'processing', 'refunded', 'failed']);
  });

  test('a live refund due before its payment\'s capture is confirmed stays pending and unsent; once the capture is confirmed the next run sends it and the acquirer\'s answer settles it', async () => {
    // Prepare: the job runs between the paid commit and the CAPTURE notification, deterministically (no capture notification comes)
    const payment = await paidWithCapturePending(stack, live, merchant.acceptorId);
    const before = await balanceOf(stack, merchant, 'live');
    const refund = (await live.post(`/v1/payments/${payment.id}/refunds`, { amount: { value: '4.00', currency: 'eur' } })).body;

    // Act
    await stack.runMinuteJobs();
    const waiting = (await live.get(`/v1/refunds/${refund.id}`)).body;
    const captured = { eventCode: 'CAPTURE', pspReference: pspReference(), originalReference: payment.acquirer_reference, merchantAccountCode: 'LocalShopECOM', merchantReference: payment.id, eventDate: `${new Date().toISOString().slice(0, 19)}+00:00`, success: 'true' as const, amount: { value: 2500, currency: 'EUR' } };
    await notify(stack, [captured]);
    await paymentWhen(live, payment.id, (found) => found.capture?.status === 'captured');
    await stack.runMinuteJobs();

    // Assess: pending until then; then sent, and answered (the local Adyen knows no such payment: it refuses the refund, which fails with its money back)
    expect(waiting).toMatchObject({ status: 'pending', acquirer_reference: null });
    await refundWhen(refund.id, 'failed');
    expect(await balanceOf(stack, merchant, 'live')).toBe(before);
    const statuses = (await live.get('/v1/events?type=transactions.refund.*&limit=100')).body.data.filter((event: any) => event.data.id === refund.id).map((event: any) => event.data.status);
    expect(statuses.reverse()).toEqual(['pending', 'processing', 'failed']);
  });
});
