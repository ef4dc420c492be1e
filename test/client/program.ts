/**
 * A consumer of the API through a generated client: `openapi-typescript` types (generated/api.ts,
 * from the served document) and `openapi-fetch`. It creates a link, pages the link list, pays the
 * link, waits for its credit in the balance, and reads the refund it creates and the ledger's movements, narrows events by `type`, and manages a webhook endpoint
 * (create, disable, roll its secret, delete); it prints what it saw as JSON.
 * Compiled with `tsc --strict` (tsconfig.json beside it) before it runs.
 */
import createClient from 'openapi-fetch';
import type { components, paths, webhooks } from './generated/api';

type Event = components['schemas']['Event'];
/** What a webhook endpoint receives for one type: the same envelope the events API returns. */
type RefundWebhook = webhooks['transactions.refund.pending']['post']['requestBody']['content']['application/json'];

function setting(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}
const acceptorId = setting('ACCEPTOR_ID');
const api = createClient<paths>({ baseUrl: setting('API_BASE_URL'), headers: { Authorization: `Bearer ${setting('API_KEY')}` } });

/** The answer's data, or as an exception the error envelope's detail (or the API throttle's message, a 429 on any operation). */
function dataOf<T>(answer: { data?: T; error?: { detail: string } | { message: string } }): T {
  if (answer.data === undefined) throw new Error(answer.error ? ('detail' in answer.error ? answer.error.detail : answer.error.message) : 'no data');
  return answer.data;
}

/** What an event says, in a line: each branch reads members only its type has. */
function describe(event: Event): string {
  switch (event.type) {
    case 'transactions.payment_link.checkout.denied':
      return `${event.data.id} denied: ${event.data.reason}`;
    case 'transactions.payment_link.payment.created':
    case 'transactions.payment_link.payment.reused':
      return `${event.data.id} payment ${event.data.payment_id}`;
    case 'transactions.payment_link.remaining_payments.decremented':
      return `${event.data.id} remaining ${event.data.remaining_payments}`;
    case 'transactions.payment_link.auto_inactivated':
      return `${event.data.id} inactive after ${event.data.paid_count_at_inactivation} of ${event.data.payments_limit}`;
    case 'transactions.payment.paid':
      return `${event.data.id} paid ${event.data.amount.value} ${event.data.amount.currency}`;
    case 'transactions.refund.pending':
      return refundLine(event);
    default:
      return `${event.data.id} ${event.type}`;
  }
}

const refundLine = (event: RefundWebhook) => `${event.data.id} pending, on hold: ${event.data.on_hold}`;

/** A payment's credit reaches the balance a moment after the payment is paid (§15): waits until the balance holds it. */
async function creditOf(amount: { value: string; currency: string }) {
  for (const until = Date.now() + 20_000; ; ) {
    const available = dataOf(await api.GET('/v1/balance')).available.find((each) => each.currency === amount.currency.toLowerCase());
    if (available && Number(available.value) >= Number(amount.value)) return;
    if (Date.now() > until) throw new Error('the payment credit never reached the balance');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function main() {
  const link = dataOf(
    await api.POST('/v1/payment_links', {
      body: { amount: { value: '12.50', currency: 'EUR' }, acceptor_id: acceptorId, payments_limit: 1, description: 'Typed client' },
    }),
  );

  const listed: string[] = [];
  for (let after: string | undefined, more = true; more; after = listed[listed.length - 1]) {
    const page = dataOf(await api.GET('/v1/payment_links', { params: { query: { limit: 2, ...(after ? { starting_after: after } : {}) } } }));
    listed.push(...page.data.map((item) => item.id));
    more = page.has_more;
  }

  const payment = dataOf(await api.POST('/v1/test_helpers/payment_links/{id}/checkout', { params: { path: { id: link.id } }, body: {} }));
  await creditOf(payment.amount);
  const created = dataOf(await api.POST('/v1/payments/{id}/refunds', { params: { path: { id: payment.id } }, body: { amount: { value: '2.50', currency: 'eur' } } }));
  const refund = dataOf(await api.GET('/v1/refunds/{id}', { params: { path: { id: created.id } } }));
  const denied = await api.POST('/v1/test_helpers/payment_links/{id}/checkout', { params: { path: { id: link.id } }, body: {} });

  const events = dataOf(await api.GET('/v1/events', { params: { query: { limit: 100 } } })).data;
  const createdEvent = events.find((event) => event.type === 'transactions.payment_link.created');
  if (createdEvent?.type === 'transactions.payment_link.created') {
    // @ts-expect-error: a created event carries the link alone, no checkout `reason`.
    void createdEvent.data.reason;
  }
  const one = dataOf(await api.GET('/v1/events/{id}', { params: { path: { id: events[0]!.id } } }));
  const paymentRefunds = dataOf(await api.GET('/v1/payments/{id}/refunds', { params: { path: { id: payment.id } } })).data.map((item) => item.id);
  const paid = dataOf(await api.GET('/v1/payments/{id}', { params: { path: { id: payment.id } } }));
  const balance = dataOf(await api.GET('/v1/balance'));
  const movements = [
    ...dataOf(await api.GET('/v1/balance_transactions', { params: { query: { source: payment.id } } })).data,
    ...dataOf(await api.GET('/v1/balance_transactions', { params: { query: { type: 'refund', limit: 1 } } })).data,
  ].map((movement) => `${movement.type} ${movement.amount.value} ${movement.amount.currency} ${movement.source ?? ''}`);

  const endpoint = dataOf(
    await api.POST('/v1/webhook_endpoints', { body: { url: 'https://hooks.example/typed', enabled_events: ['transactions.refund.*'] } }),
  );
  const path = { path: { id: endpoint.id } };
  const disabled = dataOf(await api.POST('/v1/webhook_endpoints/{id}', { params: path, body: { status: 'disabled' } }));
  const rolled = dataOf(await api.POST('/v1/webhook_endpoints/{id}/roll_secret', { params: path, body: { expires_in_seconds: 3600 } }));
  const listedEndpoints = dataOf(await api.GET('/v1/webhook_endpoints', { params: { query: { limit: 5 } } })).data.map((item) => item.id);
  const deleted = dataOf(await api.DELETE('/v1/webhook_endpoints/{id}', { params: path }));

  console.log(
    JSON.stringify({
      link: { id: link.id, status: link.status, payments_limit: link.payments_limit },
      listed,
      refund: { id: refund.id, status: refund.status, amount: refund.amount, payment_id: refund.payment_id },
      denied: { status: denied.response.status, reason: denied.error && 'reason' in denied.error ? denied.error.reason : undefined },
      events: events.map(describe),
      retrieved: { id: one.id, type: one.type },
      paymentRefunds,
      refunded: paid.amount_refunded,
      balance: { currencies: balance.available.map((amount) => amount.currency), held: balance.on_hold.length },
      movements,
      endpoint: {
        status: disabled.status,
        rolled: rolled.secret !== endpoint.secret && rolled.secret.startsWith('whsec_'),
        listed: listedEndpoints.includes(endpoint.id),
        deleted: deleted.deleted,
      },
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
