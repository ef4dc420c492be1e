import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { client } from '../../support/http';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

/**
 * A generated client against the served document: `openapi-typescript` writes the types from
 * GET /v1/openapi.json, `tsc --strict` compiles the small `openapi-fetch` program of
 * test/client against them, and the program runs against this stack.
 */
const root = join(__dirname, '..', '..', '..');
const clientDir = join(root, 'test', 'client');
type WebhookConsumer = (secret: string) => (rawBody: string, headers: Record<string, string>) => string;
let stack: TestStack;
let merchant: Merchant;

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack);
});
afterAll(() => stack?.stop());

/** Runs a node program without blocking this process: in source mode the stack answers from it. */
async function run(command: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, command, { cwd: root, env: { ...process.env, ...env } });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command.slice(0, 2).join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

test('typed client: types generated from the served document compile a strict openapi-fetch program that runs against the stack', async () => {
  const served = await client(stack.baseUrl).get('/v1/openapi.json');
  expect(served.status).toBe(200);
  await mkdir(join(clientDir, 'generated'), { recursive: true });
  const document = join(clientDir, 'generated', 'openapi.json');
  await writeFile(document, JSON.stringify(served.body));
  // A .ts, not a .d.ts: tsc checks it as the program's own source while skipLibCheck spares it the DOM and Node declarations.
  await run([join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), document, '-o', join(clientDir, 'generated', 'api.ts')]);
  await run([join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(clientDir, 'tsconfig.json')]);
  const output = await run([join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(clientDir, 'program.ts')], {
    API_BASE_URL: stack.baseUrl,
    API_KEY: merchant.test,
    ACCEPTOR_ID: merchant.acceptorId,
  });
  const seen = JSON.parse(output);
  expect(seen.link).toEqual({ id: expect.stringMatching(/^pl_/), status: 'active', payments_limit: 1 });
  expect(seen.listed).toEqual([seen.link.id]);
  expect(seen.refund).toEqual({ id: expect.stringMatching(/^rf_/), status: 'pending', amount: { value: '2.50', currency: 'eur' }, payment_id: expect.stringMatching(/^pay_/) });
  expect(seen.denied).toEqual({ status: 409, reason: 'inactive' });
  expect(seen.events).toEqual(
    expect.arrayContaining([
      `${seen.refund.id} pending, on hold: false`,
      `${seen.refund.payment_id} paid 12.50 EUR`,
      `${seen.link.id} denied: inactive`,
      `${seen.link.id} payment ${seen.refund.payment_id}`,
      `${seen.link.id} remaining 0`,
      `${seen.link.id} inactive after 1 of 1`,
      `${seen.link.id} transactions.payment_link.created`,
    ]),
  );
  expect(seen.retrieved).toEqual({ id: expect.stringMatching(/^evt_/), type: expect.any(String) });
  expect(seen.paymentRefunds).toEqual([seen.refund.id]);
  expect(seen.refunded).toEqual({ value: '2.50', currency: 'EUR' });
  expect(seen.balance).toEqual({ currencies: ['eur'], held: 0 });
  expect(seen.movements).toEqual([`payment 12.50 eur ${seen.refund.payment_id}`, `refund -2.50 eur ${seen.refund.id}`]);
  expect(seen.endpoint).toEqual({ status: 'disabled', rolled: true, listed: true, deleted: true });
}, 120_000);

test('the webhook consumer docs/webhooks.md shows verifies, narrows by type and drops duplicates', async () => {
  const source = await readFile(join(clientDir, 'webhook-consumer.ts'), 'utf8');
  expect(await readFile(join(root, 'docs', 'webhooks.md'), 'utf8')).toContain(source.slice(source.indexOf('/**')));

  const events: { id: string; type: string }[] = (await client(stack.baseUrl, merchant.test).get('/v1/events?limit=100')).body.data;
  const paid = events.find((event) => event.type === 'transactions.payment.paid')!;
  const pending = events.find((event) => event.type === 'transactions.refund.pending')!;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const signed = (event: object, id: string) => {
    const body = JSON.stringify(event);
    const timestamp = new Date();
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, timestamp, body) };
    return [body, headers] as const;
  };
  // Loaded by path once the first test has generated the types it imports (the root typecheck leaves test/client out).
  const { webhookConsumer }: { webhookConsumer: WebhookConsumer } = await import(join(clientDir, 'webhook-consumer.ts'));
  const receive = webhookConsumer(secret);

  expect(receive(...signed(paid, paid.id))).toMatch(/^payment pay_\S+ paid 12\.50 EUR$/);
  expect(receive(...signed(pending, pending.id))).toMatch(/^refund rf_\S+ pending, on hold: false$/);
  expect(receive(...signed(paid, paid.id))).toBe(`duplicate ${paid.id}`);
  const [body, headers] = signed(pending, pending.id);
  expect(() => receive(body.replace('false', 'true'), headers)).toThrow('No matching signature found');
  expect(() => webhookConsumer(`whsec_${randomBytes(24).toString('base64')}`)(body, headers)).toThrow('No matching signature found');
});
