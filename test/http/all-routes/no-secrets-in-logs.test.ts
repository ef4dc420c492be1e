import { testInProcess } from '../../support/mode';
import '../../support/debug-logs';
import { hashToken } from '../../../shared/auth/tokens';
import { createWebhookRepository } from '../../../shared/db/webhook-repository';
import { totpCode, totpSecretFromText, totpStepAt } from '../../../shared/domain/totp';
import { createPerson, dashboardBrowser, formTokenOf, linkIn, mailTo } from '../../support/dashboard';
import { client } from '../../support/http';
import { createMerchant, startTestStack, type TestStack } from '../../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

let stack: TestStack;
let receiver: WebhookReceiver;
const lines: string[] = [];
const originalWrite = process.stdout.write.bind(process.stdout);
const originalErrorWrite = process.stderr.write.bind(process.stderr);

beforeAll(async () => {
  process.env.WEBHOOK_RETRY_SCHEDULE = '0.05';
  stack = await startTestStack({ background: true });
  receiver = await startWebhookReceiver();
  const capture = (chunk: unknown) => {
    lines.push(String(chunk));
    return true;
  };
  process.stdout.write = capture as typeof process.stdout.write;
  process.stderr.write = capture as typeof process.stderr.write;
});
afterAll(async () => {
  process.stdout.write = originalWrite;
  process.stderr.write = originalErrorWrite;
  await receiver.close();
  await stack.stop();
  delete process.env.WEBHOOK_RETRY_SCHEDULE;
});

testInProcess('logs: no token, key hash, signing secret, password, session id, two-factor key or code appears in any log line, at DEBUG, through failures too', async () => {
  const merchant = await createMerchant(stack);
  const api = client(stack.baseUrl, merchant.test);
  const subscription = await createWebhookRepository(stack.db, stack.tableName, stack.sealer).create({
    orgId: merchant.orgId,
    mode: 'test',
    url: receiver.url,
    events: ['*'],
  });
  const created = (await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['transactions.refund.*'] }, { 'idempotency-key': 'log-check' })).body;
  const rolled = (await api.post(`/v1/webhook_endpoints/${created.id}/roll_secret`, {})).body;
  receiver.failNext(1);
  const link = (await api.post('/v1/payment_links', { amount: { value: '4.00', currency: 'EUR' }, acceptor_id: merchant.acceptorId })).body;
  await api.post(`/v1/test_helpers/payment_links/${link.id}/checkout`, {});
  await api.post('/v1/payment_links', { amount: { value: 'x' } });
  await api.get('/v1/payment_links/pl_unknown');
  await client(stack.baseUrl, `${merchant.test}x`).get('/v1/payment_links');
  await api.post('/v1/test_helpers/jobs/expire-payment-links');
  await receiver.waitFor(() => receiver.delivered().length >= 4, 'deliveries after a failed attempt', 20_000);
  // A person signs in (once wrong), changes their password and signs in with the new one.
  const browser = dashboardBrowser(stack);
  const person = await createPerson(stack, merchant.orgId, 'developer', { password: 'a password nobody logs' });
  await browser.signIn({ email: person.email, password: 'a wrong password nobody logs' });
  const session = await browser.sessionOf(person);
  await browser.submit('/dashboard/security/password', session, { current_password: person.password, new_password: 'a new password nobody logs' });
  const again = await browser.sessionOf({ email: person.email, password: 'a new password nobody logs' });
  // Two-factor set up (its key, the confirming code, the recovery codes), then a sign-in with a code and one with a recovery code.
  await browser.submit('/dashboard/security/two-factor', again, {});
  const keyText = /id="totp-secret">([A-Z2-7]+)</.exec((await browser.get('/dashboard/security', again)).html)![1];
  const step = totpStepAt(new Date());
  const codes = [totpCode(totpSecretFromText(keyText), step), totpCode(totpSecretFromText(keyText), step + 1)];
  const shown = await browser.follow(await browser.submit('/dashboard/security/two-factor/confirm', again, { code: codes[0] }), again);
  const recoveryCodes = [...shown.html.matchAll(/<li><code>([^<]+)<\/code><\/li>/g)].map(([, recovery]) => recovery);
  const pendingIds: string[] = [];
  for (const code of [codes[1], recoveryCodes[0]]) {
    const signedIn = await browser.signIn({ email: person.email, password: 'a new password nobody logs' });
    const pending = signedIn.setCookie.find((cookie) => cookie.startsWith('dashboard_pending='))!.split(';')[0];
    pendingIds.push(pending.split('=')[1]);
    const token = formTokenOf((await browser.get('/dashboard/sign-in/second-factor', pending)).html)!;
    expect((await browser.post('/dashboard/sign-in/second-factor', { csrf_token: token, code }, { cookie: pending })).status).toBe(303);
  }
  // An owner invites someone, who accepts; the person asks for a reset (which ends their sessions, so it comes last) and sets a password through its link.
  const owner = await createPerson(stack, merchant.orgId, 'owner');
  const invitee = `invitee-${Date.now()}@example.com`;
  await browser.submit('/dashboard/team/invitations', await browser.sessionOf(owner), { email: invitee, role: 'viewer' });
  const invitation = linkIn((await mailTo(stack, invitee))[0]);
  expect((await browser.postSignedOut(invitation, { name: 'Ivy Invitee', password: 'an invitee password nobody logs' })).status).toBe(303);
  await browser.postSignedOut('/dashboard/forgot-password', { email: person.email });
  const reset = linkIn((await mailTo(stack, person.email))[0]);
  expect((await browser.postSignedOut(reset, { password: 'a reset password nobody logs' })).status).toBe(303);
  const linkTokens = [invitation, reset].map((path) => path.split('/').pop()!);

  const secrets = [
    ...[merchant.test, merchant.live].flatMap((token) => [token, hashToken(token)]),
    ...[subscription.secret, created.secret, rolled.secret].flatMap((secret) => [secret, secret.slice(6)]),
    'a password nobody logs',
    'a wrong password nobody logs',
    'a new password nobody logs',
    'an invitee password nobody logs',
    'a reset password nobody logs',
    ...linkTokens.flatMap((token) => [token, token.split('.')[1], hashToken(token)]),
    ...[session, again].map((cookie) => cookie.split('=')[1]).flatMap((sessionId) => [sessionId, hashToken(sessionId)]),
    keyText,
    // A 6-digit code alone may occur in any log by chance (a duration, an epoch): as a form or JSON would carry it.
    ...codes.flatMap((code) => [`code=${code}`, `"${code}"`]),
    ...recoveryCodes,
    ...pendingIds.flatMap((pendingId) => [pendingId, hashToken(pendingId)]),
  ];
  expect(recoveryCodes).toHaveLength(10);
  const joined = lines.join('');
  expect(lines.filter((line) => line.includes('"message":"request"')).length).toBeGreaterThanOrEqual(6);
  expect(joined).toContain(merchant.orgId);
  for (const secret of secrets) expect(joined.includes(secret)).toBe(false);
}, 60_000);
