import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { expectEnvelope } from '../../support/http';
import { seedPaidPayment } from '../../support/refunds';
import { startMerchantStack, type Api, type Merchant, type TestStack } from '../../support/stack';

/** In the AWS configuration a webhook URL that is not https on a public address is refused when given (decisions §9, §14). */
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
  'https://10.0.0.1/hook',
  'https://localhost:4000/hook',
  'https://[::1]/hook',
  'https://[::a00:1]/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[64:ff9b::a00:1]/hook',
  'https://[2002:a00:1::1]/hook',
  'https://[fec0::1]/hook',
  'https://[::ffff:0:a9fe:a9fe]/latest/meta-data',
  'https://[64:ff9b:1::a9fe:a9fe]/hook',
  'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook',
  'https://[100::1]/hook',
  'https://[2001:db8::1]/hook',
  'https://192.0.2.10/hook',
];

describe('Webhook URLs: checked when given', () => {
  test.each(NON_PUBLIC)('a refund webhook_url %s is a 422 at creation', async (url) => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '10.00' });
    expectEnvelope(await api.post(`/v1/payments/${payment.id}/refunds`, { webhook_url: url }), 422, 'webhook_url');
  });

  test('a refund webhook_url over http, even on a public address, is a 422 at creation', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '10.00' });
    const refused = expectEnvelope(await api.post(`/v1/payments/${payment.id}/refunds`, { webhook_url: 'http://93.184.216.34/hook' }), 422, 'webhook_url');
    expect(refused.detail).toMatch(/https/);
  });

  test.each([...NON_PUBLIC, 'http://93.184.216.34/hook'])('a webhook endpoint url %s is a 422, at creation and at update', async (url) => {
    expectEnvelope(await api.post('/v1/webhook_endpoints', { url, enabled_events: ['*'] }), 422, 'url');
    const endpoint = (await api.post('/v1/webhook_endpoints', { url: 'https://93.184.216.34/hook', enabled_events: ['*'] })).body;
    expectEnvelope(await api.post(`/v1/webhook_endpoints/${endpoint.id}`, { url }), 422, 'url');
    expect((await api.get(`/v1/webhook_endpoints/${endpoint.id}`)).body.url).toBe('https://93.184.216.34/hook');
    expect((await api.call('DELETE', `/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
  });

  test('a public address is accepted', async () => {
    const payment = await seedPaidPayment(stack, merchant, { amount: '10.00' });
    expect((await api.post(`/v1/payments/${payment.id}/refunds`, { webhook_url: 'https://93.184.216.34/hook' })).status).toBe(201);
  });

  test.each(['https://192.168.1.5/hooks', 'https://[::ffff:0:a9fe:a9fe]/hooks', 'https://[64:ff9b:1::a00:1]/hooks'])('ops webhook create refuses %s', async (url) => {
    await expect(
      runOps(opsCommands(), ['webhook', 'create', '--org', merchant.orgId, '--mode', 'test', '--url', url, '--events', '*']),
    ).rejects.toThrow(/url must be a public https address: .*not a public address/);
  });
});
