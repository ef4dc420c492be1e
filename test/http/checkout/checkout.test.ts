import { readBalance } from '../../../shared/db/balance';
import { createPaymentLinkRepository } from '../../../shared/db/payment-link-repository';
import { linkEvent, PAYMENT_LINK_EVENT, StaleLinkError } from '../../../shared/domain/payment-links';
import { EMAIL_ADDRESS_PATTERN, PHONE_NUMBER_PATTERN } from '../../../shared/domain/inputs';
import { escapeHtml } from '../../../shared/http/page';
import { newId } from '../../../shared/ids';
import { LIMITS } from '../../../shared/limits';
import { openCheckoutPage, postCheckoutForm } from '../../support/checkout-form';
import { emailOf } from '../../support/edge-values';
import { eventsFor, outboxEvents } from '../../support/events';
import { client, expectEnvelope } from '../../support/http';
import { creditsRolled } from '../../support/refunds';
import { createMerchant, startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

let stack: TestStack;
let merchant: Merchant;
let api: Api;

beforeAll(async () => {
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(() => stack.stop());

const create = async (body: Record<string, unknown> = {}) =>
  (await api.post('/v1/payment_links', { amount: { value: '10.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId, ...body })).body;
const checkout = (linkId: string, body: Record<string, unknown> = {}) => api.post(`/v1/test_helpers/payment_links/${linkId}/checkout`, body);
const events = () => outboxEvents(stack, merchant.orgId);
const openPage = (linkId: string, cookie?: string) => fetch(`${stack.baseUrl}/checkout/${linkId}`, { headers: cookie ? { cookie } : {} });

describe('checkout page', () => {
  test('checkout: the page names the merchant and shows the amount as the customer reads it, the description, the expiry and the test-mode outcomes', async () => {
    const link = await create({ description: 'Yoga class', amount: { value: '25.5', currency: 'eur' }, expires_at: '2030-01-02T15:04:00.000Z' });
    const response = await openPage(link.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    const html = await response.text();
    expect(html).toContain('Yoga class');
    expect(html).toContain('<strong data-testid="merchant">Web shop</strong>');
    expect(html).toContain('€25.50');
    expect(html).toContain('This link expires on 2 Jan 2030, 15:04 UTC.');
    for (const outcome of ['paid', 'failed', 'canceled', 'expired']) expect(html).toContain(`value="${outcome}"`);
    expect(response.headers.get('set-cookie')).toMatch(/^client_key=/);
    expect(eventsFor(await events(), 'transactions.payment_link.checkout.requested', link.id)).toHaveLength(1);
    expect(eventsFor(await events(), 'transactions.payment_link.payment.created', link.id)).toHaveLength(1);
  });

  test.each([
    ['JPY', '1000', '¥1,000'],
    ['EUR', '49.9', '€49.90'],
    ['HUF', '10.50', 'HUF\u00a010.50'],
    ['KWD', '1.5', 'KWD\u00a01.500'],
  ])('checkout and thank-you pages: %s %s reads %s (the currency\'s own minor unit)', async (currency, value, shown) => {
    const link = await create({ amount: { value, currency } });
    const html = await (await openPage(link.id)).text();
    expect(/data-testid="amount">([^<]*)</.exec(html)?.[1]).toBe(shown);
    const paid = (await checkout(link.id)).body;
    const thanks = await (await fetch(`${stack.baseUrl}/checkout/${link.id}/thank-you?payment_id=${paid.id}`)).text();
    expect(/<p class="amount">([^<]*)</.exec(thanks)?.[1]).toBe(shown);
  });

  test('checkout: the same customer (client_key cookie) reuses the still-open payment', async () => {
    const link = await create();
    const first = await openPage(link.id);
    const cookie = first.headers.get('set-cookie')!.split(';')[0];
    const paymentId = /name="payment_id" value="([^"]+)"/.exec(await first.text())![1];
    const second = await openPage(link.id, cookie);
    expect(/name="payment_id" value="([^"]+)"/.exec(await second.text())![1]).toBe(paymentId);
    const reused = eventsFor(await events(), 'transactions.payment_link.payment.reused', link.id);
    expect(reused).toHaveLength(1);
    expect(reused[0].data.payment_id).toBe(paymentId);
    const stranger = await openPage(link.id);
    expect(/name="payment_id" value="([^"]+)"/.exec(await stranger.text())![1]).not.toBe(paymentId);
  });

  test('checkout: the test helper reuses an open payment for the same client_key', async () => {
    const link = await create();
    const open = await checkout(link.id, { outcome: 'open', client_key: 'customer-123' });
    expect(open.status).toBe(201);
    expect(open.body.status).toBe('open');
    const paid = await checkout(link.id, { client_key: 'customer-123' });
    expect(paid.body).toMatchObject({ id: open.body.id, status: 'paid' });
  });

  test('checkout: a live link offers one Pay, which goes on to the acquirer, and no test outcome', async () => {
    const live = client(stack.baseUrl, merchant.live);
    const link = (await live.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
    const html = await (await openPage(link.id)).text();
    expect(html).toContain('<button type="submit" name="outcome" value="paid">Pay</button>');
    expect(html).not.toMatch(/value="(failed|canceled|expired)"/);
    expect(html).toContain('payment provider');
  });

  test('checkout: a live link whose acceptor has no merchant account at the acquirer -> 409 page, no payment opened', async () => {
    const live = client(stack.baseUrl, merchant.live);
    const acceptor = await stack.directory.createAcceptor(merchant.orgId, 'Shop without an acquirer account');
    const link = (await live.post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: acceptor.id })).body;
    const response = await openPage(link.id);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain('cannot take live payments yet');
    expect((await live.get(`/v1/payment_links/${link.id}/payments`)).body.data).toEqual([]);
  });

  test('checkout: unknown link -> 404 page', async () => {
    expect((await openPage(newId('paymentLink'))).status).toBe(404);
  });
});

describe('denial: 409 with the reason precedence of the contract', () => {
  test('inactive link -> 409 page and checkout.denied reason inactive', async () => {
    const link = await create();
    await api.post(`/v1/payment_links/${link.id}`, { status: 'inactive' });
    const response = await openPage(link.id);
    expect(response.status).toBe(409);
    expect(await response.text()).toContain('no longer active');
    const denied = eventsFor(await events(), 'transactions.payment_link.checkout.denied', link.id);
    expect(denied.map((event) => event.data.reason)).toEqual(['inactive']);
  });

  test('a link auto-inactivated by its limit is denied as inactive', async () => {
    const link = await create({ payments_limit: 1 });
    await checkout(link.id);
    const body = expectEnvelope(await checkout(link.id), 409);
    expect(body.reason).toBe('inactive');
  });

  test('an active link at its limit (limit lowered to paid_count) is denied as limit_reached', async () => {
    const link = await create({ payments_limit: 3 });
    await checkout(link.id);
    await api.post(`/v1/payment_links/${link.id}`, { payments_limit: 1 });
    expect(expectEnvelope(await checkout(link.id), 409).reason).toBe('limit_reached');
    expect((await api.get(`/v1/payment_links/${link.id}`)).body.status).toBe('active');
  });

  test('an elapsed expires_at found at checkout expires the link on the spot', async () => {
    const link = await create({ expires_at: '2020-01-01T00:00:00.000Z' });
    const response = await openPage(link.id);
    expect(response.status).toBe(409);
    const after = (await api.get(`/v1/payment_links/${link.id}`)).body;
    expect(after).toMatchObject({ status: 'expired', expires_at: null, expired_at: expect.any(String) });
    const all = await events();
    expect(eventsFor(all, 'transactions.payment_link.expired', link.id)).toHaveLength(1);
    expect(eventsFor(all, 'transactions.payment_link.checkout.denied', link.id).map((e) => e.data.reason)).toEqual(['expired']);
    expect(expectEnvelope(await checkout(link.id), 409).reason).toBe('expired');
  });
});

describe('the paid transition', () => {
  test('paid: counters, first/last paid, balance credit and transactions.payment.paid', async () => {
    const ref = { orgId: merchant.orgId, mode: 'test' as const, currency: 'EUR' };
    const before = await readBalance(stack.db, stack.tableName, ref);
    const link = await create({ payments_limit: 2 });
    const first = (await checkout(link.id)).body;
    const after = (await api.get(`/v1/payment_links/${link.id}`)).body;
    expect(after).toMatchObject({ paid_count: 1, remaining_payments: 1, first_paid_at: first.paid_at, last_paid_at: first.paid_at, status: 'active' });
    // Its credit: in the ledger with the payment, in the balance once the outbox processor rolled it (§15).
    const entry = (await api.get(`/v1/balance_transactions?source=${first.id}`)).body.data;
    expect(entry).toEqual([expect.objectContaining({ type: 'payment', amount: { value: '10.00', currency: 'eur' }, source: first.id })]);
    await creditsRolled(stack, merchant.orgId);
    expect(await readBalance(stack.db, stack.tableName, ref)).toBe(before + 1000);
    const paid = eventsFor(await events(), 'transactions.payment.paid', first.id);
    expect(paid).toHaveLength(1);
    const decremented = eventsFor(await events(), 'transactions.payment_link.remaining_payments.decremented', link.id);
    expect(decremented.map((event) => [event.data.payment_id, event.data.remaining_payments])).toEqual([[first.id, 1]]);
  });

  test('paid: the final payment inactivates the link with auto_inactivated (reason limit_reached)', async () => {
    const link = await create({ payments_limit: 2 });
    await checkout(link.id);
    const last = (await checkout(link.id)).body;
    const after = (await api.get(`/v1/payment_links/${link.id}`)).body;
    expect(after).toMatchObject({ status: 'inactive', paid_count: 2, remaining_payments: 0 });
    const auto = eventsFor(await events(), 'transactions.payment_link.auto_inactivated', link.id);
    expect(auto).toHaveLength(1);
    expect(auto[0].data).toMatchObject({ payment_id: last.id, paid_count_at_inactivation: 2, payments_limit: 2, reason: 'limit_reached' });
  });

  test('paid: an unlimited link counts payments without limit events', async () => {
    const link = await create();
    await checkout(link.id);
    await checkout(link.id);
    expect((await api.get(`/v1/payment_links/${link.id}`)).body).toMatchObject({ paid_count: 2, remaining_payments: null, status: 'active' });
    expect(eventsFor(await events(), 'transactions.payment_link.remaining_payments.decremented', link.id)).toHaveLength(0);
  });

  test.each(['failed', 'canceled', 'expired'])('outcome %s: the payment takes it and is not counted', async (outcome) => {
    const link = await create({ payments_limit: 1 });
    const payment = (await checkout(link.id, { outcome })).body;
    expect(payment).toMatchObject({ status: outcome, paid_at: null });
    expect((await api.get(`/v1/payment_links/${link.id}`)).body).toMatchObject({ paid_count: 0, status: 'active' });
  });

  test('test helper: a live key gets 404; bad outcome -> 400; foreign link -> 404', async () => {
    const link = await create();
    expectEnvelope(await client(stack.baseUrl, merchant.live).post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {}), 404);
    expectEnvelope(await checkout(link.id, { outcome: 'refunded' }), 400);
    const other = await createMerchant(stack);
    expectEnvelope(await client(stack.baseUrl, other.test).post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {}), 404);
  });
});

describe('optimistic concurrency', () => {
  test('a link write at a stale version is refused with the current link, and nothing else commits', async () => {
    const links = createPaymentLinkRepository(stack.db, stack.tableName);
    const link = (await links.get((await create({ payments_limit: 5 })).id))!;
    const urls = { base: stack.baseUrl, checkout: `${stack.baseUrl}/checkout`, dashboard: `${stack.baseUrl}/dashboard`, docs: `${stack.baseUrl}/docs` };
    const changed = (description: string) => ({ ...link, description });
    await links.save(changed('first'), link, []);
    const stale = links.save(changed('second'), link, [linkEvent(urls, PAYMENT_LINK_EVENT.propertiesChanged, changed('second'))]);
    await expect(stale).rejects.toBeInstanceOf(StaleLinkError);
    const error = (await stale.catch((e: unknown) => e)) as StaleLinkError;
    expect(error.current).toMatchObject({ description: 'first', version: link.version + 1 });
    expect(eventsFor(await events(), 'transactions.payment_link.properties.changed', link.id)).toEqual([]);
  });
});

describe('expiry sweep', () => {
  test('the minute job expires due links only, each under a condition, with the expired event', async () => {
    const due = await create({ expires_at: '2021-06-01T00:00:00Z' });
    const later = await create({ expires_at: '2035-06-01T00:00:00Z' });
    const run = await api.post('/v1/test_helpers/jobs/expire-payment-links');
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ object: 'job_run', name: 'expire-payment-links', processed: 1 });
    expect((await api.get(`/v1/payment_links/${due.id}`)).body).toMatchObject({ status: 'expired', expires_at: null });
    expect((await api.get(`/v1/payment_links/${later.id}`)).body.status).toBe('active');
    expect(eventsFor(await events(), 'transactions.payment_link.expired', due.id)).toHaveLength(1);
    expect((await api.post('/v1/test_helpers/jobs/expire-payment-links')).body.processed).toBe(0);
  });

  test('an inactive link whose expiry elapses stays inactive; reactivated, it expires at the next sweep', async () => {
    const link = await create({ expires_at: '2035-01-01T00:00:00Z' });
    await api.post(`/v1/payment_links/${link.id}`, { status: 'inactive', expires_at: '2021-01-01T00:00:00Z' });
    await api.post('/v1/test_helpers/jobs/expire-payment-links');
    expect((await api.get(`/v1/payment_links/${link.id}`)).body.status).toBe('inactive');
    const reactivated = await api.post(`/v1/payment_links/${link.id}`, { status: 'active' });
    expect(reactivated.body.status).toBe('active');
    await api.post('/v1/test_helpers/jobs/expire-payment-links');
    expect((await api.get(`/v1/payment_links/${link.id}`)).body).toMatchObject({ status: 'expired', expired_at: expect.any(String) });
  });

  test('jobs: unknown job name -> 404; a live key -> 404', async () => {
    expectEnvelope(await api.post('/v1/test_helpers/jobs/make-coffee'), 404);
    expectEnvelope(await client(stack.baseUrl, merchant.live).post('/v1/test_helpers/jobs/expire-payment-links'), 404);
  });
});

describe('payments', () => {
  test('payments: retrieve and list with the status filter, newest first, both cursors', async () => {
    const other = await createMerchant(stack);
    const otherApi = client(stack.baseUrl, other.test);
    const link = (await otherApi.post('/v1/payment_links', { amount: { value: '4.00', currency: 'EUR' }, acceptor_id: other.acceptorId })).body;
    const made = [];
    for (const outcome of ['paid', 'failed', 'paid', 'paid']) {
      made.unshift((await otherApi.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, { outcome })).body);
    }
    const one = await otherApi.get(`/v1/payments/${made[0].id}`);
    expect(one.body).toMatchObject({ object: 'payment', id: made[0].id, payment_link_id: link.id, acceptor_id: other.acceptorId, org_id: other.orgId, mode: 'test' });
    const all = await otherApi.get('/v1/payments');
    expect(all.body.data.map((p: { id: string }) => p.id)).toEqual(made.map((p) => p.id));
    const paid = await otherApi.get('/v1/payments?status=paid&limit=2');
    expect(paid.body.data.map((p: { id: string }) => p.id)).toEqual([made[0].id, made[1].id]);
    expect(paid.body.has_more).toBe(true);
    const before = await otherApi.get(`/v1/payments?ending_before=${made[2].id}&limit=1`);
    expect(before.body.data.map((p: { id: string }) => p.id)).toEqual([made[1].id]);
    expect(before.body.has_more).toBe(true);
    expectEnvelope(await otherApi.get('/v1/payments?status=refunded'), 400);
    expectEnvelope(await otherApi.get(`/v1/payments?starting_after=${made[0].id}&ending_before=${made[1].id}`), 422, 'ending_before');
    const noScope = await other.key({ scopes: ['payment_link:read'] });
    expectEnvelope(await client(stack.baseUrl, noScope).get('/v1/payments'), 403);
  });
});

describe('test-helper checkout: the same rules as the page (§10)', () => {
  test('a link that collects fields needs them to pay (422 on the first missing one); other outcomes need none', async () => {
    const link = await create({ collect_email: true, collect_phone: true });
    const checkout = (body: Record<string, unknown>) => api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, body);
    expectEnvelope(await checkout({}), 422, 'email');
    expectEnvelope(await checkout({ email: 'ada@example.com' }), 422, 'phone');
    expectEnvelope(await checkout({ email: 'not an email', phone: '+49 30 1234' }), 400, 'email');
    expect((await checkout({ outcome: 'failed' })).body).toMatchObject({ status: 'failed' });
    const paid = await checkout({ email: 'ada@example.com', phone: '+49 30 1234' });
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ status: 'paid', customer: { email: 'ada@example.com', phone: '+49 30 1234' } });
  });
});

describe('customer details: bounded, one rule for the page, its markup and the helper (issue 25)', () => {
  const { emailLength, phoneLength, addressLength } = LIMITS.customer;
  const collectingAll = () => create({ collect_email: true, collect_phone: true, collect_address: true });
  const valid = { email: 'ada@example.com', phone: '+49 (30) 1234-56', address: 'Unter den Linden 1\n10117 Berlin' };

  const submitForm = async (linkId: string, fields: Record<string, string>) =>
    postCheckoutForm(stack.baseUrl, linkId, await openCheckoutPage(stack.baseUrl, linkId), fields);

  /** The checkout form again: its payment, each field's message beside it (aria-describedby) and its value. */
  function expectReRendered(html: string, paymentId: string, fields: Record<string, { value: string; message?: RegExp }>) {
    expect(html).toContain(`name="payment_id" value="${paymentId}"`);
    expect(html).toContain('value="paid"');
    for (const [name, { value, message }] of Object.entries(fields)) {
      const control = new RegExp(`<(input|textarea) id="${name}"[^>]*>`).exec(html)?.[0] ?? '';
      if (name === 'address') expect(html).toContain(`>${escapeHtml(value)}</textarea>`);
      else expect(control).toContain(`value="${escapeHtml(value)}"`);
      if (!message) {
        expect(control).not.toContain('aria-invalid');
        continue;
      }
      expect(control).toContain(`aria-describedby="${name}-error"`);
      expect(control).toContain('aria-invalid="true"');
      expect(new RegExp(`<p id="${name}-error"[^>]*>([^<]*)</p>`).exec(html)?.[1]).toMatch(message);
    }
  }

  test('test helper: an email, phone or address over its bound -> 400 with its attribute, never 500; at the bound -> 201 with the values', async () => {
    const link = await collectingAll();
    const pay = (details: Record<string, string>) => checkout(link.id, { ...valid, ...details });
    for (const [field, value] of [
      ['email', emailOf(emailLength + 1)],
      ['email', emailOf(70 * 1024)],
      ['phone', '1'.repeat(phoneLength + 1)],
      ['address', 'x'.repeat(addressLength + 1)],
    ]) {
      expectEnvelope(await pay({ [field]: value }), 400, field);
    }
    const atBounds = { email: emailOf(emailLength), phone: '1'.repeat(phoneLength), address: '€'.repeat(addressLength) };
    const paid = await pay(atBounds);
    expect(paid.status).toBe(201);
    expect(paid.body).toMatchObject({ status: 'paid', customer: { email: atBounds.email, phone: atBounds.phone }, billing: { address: atBounds.address } });
  });

  test('checkout page: an email, phone or address over its bound -> 400, the form again with the message beside the field, never 500', async () => {
    const link = await collectingAll();
    for (const [field, value] of [
      ['email', emailOf(70 * 1024)],
      ['phone', '1'.repeat(phoneLength + 1)],
      ['address', 'x'.repeat(addressLength + 1)],
    ]) {
      const answer = await submitForm(link.id, { ...valid, [field]: value });
      expect({ field, status: answer.status }).toEqual({ field, status: 400 });
      expectReRendered(answer.html, answer.paymentId, { ...Object.fromEntries(Object.entries(valid).map(([name, kept]) => [name, { value: kept }])), [field]: { value, message: /at most/ } });
      expect((await api.get(`/v1/payments/${answer.paymentId}`)).body.status).toBe('open');
    }
  });

  test('checkout page: an address at its bound with line breaks sent as CRLF (as browsers send a textarea, whose maxlength counts one) pays, stored with \\n', async () => {
    const link = await create({ collect_address: true });
    const lines = ['x'.repeat(addressLength / 2 - 1), 'y'.repeat(addressLength / 2)];
    const answer = await submitForm(link.id, { address: lines.join('\r\n') });
    expect(answer.status).toBe(303);
    expect((await api.get(`/v1/payments/${answer.paymentId}`)).body.billing).toEqual({ address: lines.join('\n') });
  });

  test('checkout page: an email the browser accepts (ann@example, the WHATWG rule of input type=email) pays', async () => {
    const link = await create({ collect_email: true });
    const answer = await submitForm(link.id, { email: 'ann@example' });
    expect(answer.status).toBe(303);
    expect((await api.get(`/v1/payments/${answer.paymentId}`)).body).toMatchObject({ status: 'paid', customer: { email: 'ann@example' } });
  });

  test.each([
    ['ann@example', 201],
    ["o'brien+shop@mail.example.co.uk", 201],
    ['  ann@example.com  ', 201],
    ['ann', 400],
    ['ann@@example', 400],
    ['ann@-example.com', 400],
    ['ann@example..com', 400],
    ['"ann"@example.com', 400],
    ['ann@exämple.com', 400],
    [`ann@${'a'.repeat(64)}.com`, 400],
  ])('test helper: email %j by the WHATWG rule of input type=email -> %i', async (email, status) => {
    const link = await create({ collect_email: true });
    const answer = await checkout(link.id, { email });
    if (status === 400) expectEnvelope(answer, 400, 'email');
    else expect(answer.body).toMatchObject({ status: 'paid', customer: { email: email.trim() } });
  });

  test.each([
    ['+49 (30) 1234-56', 201],
    ['030/123.456', 201],
    ['call me', 400],
    ['+49 30 1234 ext 5', 400],
    ['+-()', 400],
  ])('test helper: phone %j -> %i', async (phone, status) => {
    const link = await create({ collect_phone: true });
    const answer = await checkout(link.id, { phone });
    if (status === 400) expectEnvelope(answer, 400, 'phone');
    else expect(answer.body).toMatchObject({ status: 'paid', customer: { phone } });
  });

  test('checkout page: a refused value -> 400, the checkout again with the message beside its field and every value kept, the payment still open', async () => {
    const link = await collectingAll();
    const typed = { email: 'ann@@example', phone: 'call me', address: 'Unter den Linden 1 <b>' };
    const answer = await submitForm(link.id, typed);
    expect(answer.status).toBe(400);
    expectReRendered(answer.html, answer.paymentId, {
      email: { value: typed.email, message: /email address such as/ },
      phone: { value: typed.phone, message: /phone number/ },
      address: { value: typed.address },
    });
    expect((await api.get(`/v1/payments/${answer.paymentId}`)).body.status).toBe('open');
  });

  test('checkout page: a field the link collects left empty -> 422, the checkout again with the message beside it and the other values kept', async () => {
    const link = await collectingAll();
    const answer = await submitForm(link.id, { email: 'ada@example.com', phone: '  ', address: 'Unter den Linden 1' });
    expect(answer.status).toBe(422);
    expectReRendered(answer.html, answer.paymentId, {
      email: { value: 'ada@example.com' },
      phone: { value: '  ', message: /Enter your phone number/ },
      address: { value: 'Unter den Linden 1' },
    });
  });

  test("checkout page: the fields' markup carries the server's rule (type, maxlength, pattern)", async () => {
    const link = await collectingAll();
    const html = await (await openPage(link.id)).text();
    const control = (name: string) => new RegExp(`<(input|textarea) id="${name}"[^>]*>`).exec(html)?.[0] ?? '';
    expect(control('email')).toContain(`type="email"`);
    expect(control('email')).toContain(`maxlength="${emailLength}"`);
    expect(control('email')).toContain(`pattern="${escapeHtml(EMAIL_ADDRESS_PATTERN)}"`);
    expect(control('phone')).toContain(`maxlength="${phoneLength}"`);
    expect(control('phone')).toContain(`pattern="${escapeHtml(PHONE_NUMBER_PATTERN)}"`);
    expect(control('address')).toContain(`maxlength="${addressLength}"`);
  });
});
