/**
 * `npm run bench:acquirer`: a live payment's way from the acquirer's AUTHORISATION notification
 * to a payment paid and its capture confirmed, on the local stack (source mode, DynamoDB Local
 * behind its contention layer, the local Adyen), beside the test mode's paid path in the same run.
 *
 * Live, per payment: the checkout page (which opens the hosted session), its Pay, the local
 * Adyen's hosted form; the local Adyen then sends AUTHORISATION. Measured from the table, not
 * from polling: the AUTHORISATION notification's `receivedAt` (kept, before `[accepted]`) to
 * its `processedAt` (the paid transaction committed: "paid"), and to the `processedAt` of the
 * CAPTURE notification that follows the service's capture ("paid and captured"). Test mode, per
 * payment: the checkout page, then its Pay (POST, answered 303 once the payment is paid), timed
 * by the client. The two kinds alternate, so the machine's load falls on both alike. One
 * payment at a time, each on a link of its own: what is measured is the path, not a queue.
 */
import '../shared/quiet-sdk';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { SCOPES } from '../shared/auth/principal';
import { createDocumentClient } from '../shared/db/client';
import { createDirectory } from '../shared/db/directory';
import * as keys from '../shared/db/keys';
import { freePort } from '../bin/local/free-port';
import { LOCAL_MERCHANT_ACCOUNT } from '../bin/local/acquirer';
import { startLocalStack } from '../bin/local/stack';
import { percentile } from './api';

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100);
const CARD = { holderName: 'Ada Lovelace', number: '4111111111111111', expiryMonth: '03', expiryYear: '2030', cvc: '737' };

const summary = (name: string, samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { name, n: sorted.length, p50: Math.round(percentile(sorted, 0.5)), p99: Math.round(percentile(sorted, 0.99)) };
};

async function main() {
  process.env.LOG_LEVEL ??= 'ERROR';
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  const tableName = `bench-acquirer-${Date.now()}`;
  delete process.env.BASE_URL;
  const stack = await startLocalStack({ port: 0, dynamodbEndpoint: endpoint, tableName, dataDir: ':memory:', background: true });
  const db = createDocumentClient({ endpoint });
  try {
    const directory = createDirectory(db, tableName);
    const org = await directory.createOrganization('Bench');
    const acceptor = await directory.createAcceptor(org.id, 'Bench shop', LOCAL_MERCHANT_ACCOUNT);
    const user = await directory.createUser(org.id);
    const token = async (mode: 'test' | 'live') => (await directory.createApiKey({ orgId: org.id, creatorId: user.userId, mode, scopes: [...SCOPES] })).token;
    const tokens = { test: await token('test'), live: await token('live') };

    async function openCheckout(mode: 'test' | 'live') {
      const created = await fetch(`${stack.baseUrl}/v1/payment_links`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens[mode]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: { value: '25.00', currency: 'EUR' }, acceptor_id: acceptor.id }),
      });
      const link = (await created.json()) as { links: { checkout: { href: string } } };
      const page = await fetch(link.links.checkout.href, { headers: { accept: 'text/html' } });
      const cookie = page.headers.getSetCookie().map((value) => value.split(';')[0]).join('; ');
      const paymentId = /name="payment_id" value="([^"]+)"/.exec(await page.text())![1];
      const pay = () =>
        fetch(link.links.checkout.href, {
          method: 'POST',
          headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
          body: new URLSearchParams({ payment_id: paymentId, outcome: 'paid' }),
          redirect: 'manual',
        });
      return { paymentId, pay };
    }

    const payment = async (id: string) => (await db.send(new GetCommand({ TableName: tableName, Key: keys.payment(id), ConsistentRead: true }))).Item;
    async function captured(id: string) {
      for (;;) {
        if ((await payment(id))?.acquirer?.capture === 'captured') return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }

    const testPaid: number[] = [];
    const live: string[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const test = await openCheckout('test');
      const start = performance.now();
      const answer = await test.pay();
      testPaid.push(performance.now() - start);
      if (answer.status !== 303) throw new Error(`test Pay answered ${answer.status}`);

      const checkout = await openCheckout('live');
      const hosted = (await checkout.pay()).headers.get('location')!;
      const back = await fetch(hosted, { method: 'POST', body: new URLSearchParams(CARD), redirect: 'manual' });
      if (back.status !== 303) throw new Error(`the hosted page answered ${back.status}`);
      await captured(checkout.paymentId);
      live.push(checkout.paymentId);
    }

    // The notifications as kept and processed (a bench may scan its own table).
    const notifications: { notification: { kind: string; paymentId: string; acquirerReference: string }; receivedAt: string; processedAt: string }[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: tableName, FilterExpression: 'begins_with(PK, :acqn)', ExpressionAttributeValues: { ':acqn': 'ACQN#' }, ExclusiveStartKey: startKey }));
      notifications.push(...((page.Items ?? []) as typeof notifications));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    const toPaid: number[] = [];
    const toCaptured: number[] = [];
    for (const id of live) {
      const authorised = notifications.find((kept) => kept.notification.kind === 'payment.authorized' && kept.notification.paymentId === id)!;
      const capture = notifications.find((kept) => kept.notification.kind === 'payment.captured' && kept.notification.acquirerReference === authorised.notification.acquirerReference)!;
      toPaid.push(Date.parse(authorised.processedAt) - Date.parse(authorised.receivedAt));
      toCaptured.push(Date.parse(capture.processedAt) - Date.parse(authorised.receivedAt));
    }
    const results = [
      summary('live: AUTHORISATION received -> paid (ms)', toPaid),
      summary('live: AUTHORISATION received -> paid and captured (ms)', toCaptured),
      summary('test: the checkout Pay, paid (ms, client round trip)', testPaid),
    ];
    for (const result of results) console.log(`${result.name.padEnd(58)} n=${result.n}  p50 ${result.p50}  p99 ${result.p99}`);
    console.log(JSON.stringify({ bench: 'acquirer', payments: PAYMENTS, results }));
  } finally {
    db.destroy();
    await stack.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
