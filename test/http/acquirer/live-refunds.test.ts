import { acquirerControl, acquirerWhen, paidLivePayment, waitFor, withLiveStack } from '../../support/live';
import { dashboardBrowser } from '../../support/dashboard';
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
    const cookie = (await browser.signIn(merchant.live)).cookie!;

    // Act
    const paymentPage = await browser.get(`/dashboard/payments/${payment.id}`, cookie);
    const refundPage = await browser.get(`/dashboard/refunds/${refund.id}`, cookie);

    // Assess
    expect(paymentPage.html).toMatch(new RegExp(`data-field="acquirer_reference"><code>${payment.acquirer_reference}</code>`));
    expect(paymentPage.html).toMatch(new RegExp(`data-field="capture"><span class="badge good">captured</span> <code>${payment.capture.acquirer_reference}</code>`));
    expect(refundPage.html).toMatch(new RegExp(`data-field="acquirer_reference"><code>${refunded.acquirer_reference}</code>`));
  });

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
});
