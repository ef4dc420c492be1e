import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { expectEnvelope } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/** In the AWS configuration a webhook URL that is not a public http(s) address is refused when given (decisions §9). */
let stack: TestStack;
let merchant: Merchant;
let api: Api;
const allowed = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'false';
  ({ stack, merchant, api } = await startMerchantStack());
});
afterAll(async () => {
  await stack?.stop();
  if (allowed === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
  else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = allowed;
});

const NON_PUBLIC = [
  'http://10.0.0.1/hook',
  'http://localhost:4000/hook',
  'http://[::1]/hook',
  'http://[::a00:1]/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://[64:ff9b::a00:1]/hook',
  'http://[2002:a00:1::1]/hook',
  'http://[fec0::1]/hook',
  'http://[::ffff:0:a9fe:a9fe]/latest/meta-data',
  'http://[64:ff9b:1::a9fe:a9fe]/hook',
  'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
  'http://[100::1]/hook',
  'http://[2001:db8::1]/hook',
  'http://192.0.2.10/hook',
];

describe('Webhook URLs: checked when given', () => {
  test.each(NON_PUBLIC)('a refund webhook_url %s is a 422 at creation', async (url) => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '10.00' });
    expectEnvelope(await api.post(`/v1/payments/${payment.id}/refunds`, { webhook_url: url }), 422, 'webhook_url');
  });

  test('a public address is accepted', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '10.00' });
    expect((await api.post(`/v1/payments/${payment.id}/refunds`, { webhook_url: 'https://93.184.216.34/hook' })).status).toBe(201);
  });

  test.each(['http://192.168.1.5/hooks', 'http://[::ffff:0:a9fe:a9fe]/hooks', 'http://[64:ff9b:1::a00:1]/hooks'])('ops webhook create refuses %s', async (url) => {
    await expect(
      runOps(opsCommands(), ['webhook', 'create', '--org', merchant.orgId, '--mode', 'test', '--url', url, '--events', '*']),
    ).rejects.toThrow(/url must be a public http\(s\) address/);
  });
});
