import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import * as keys from '../../../shared/db/keys';
import { createSigningSecrets, createWebhookRepository } from '../../../shared/db/webhook-repository';
import { isEventPattern, matchesPattern, newSigningSecret } from '../../../shared/domain/webhooks';
import { BusinessRuleError, InvalidRequestError, NotFoundError } from '../../../shared/errors';
import { newEvent } from '../../../shared/events';
import { outboxPut, withStoredEnvelope } from '../../../shared/db/outbox';
import { UsageError, runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { createMerchant, startTestStack, type Merchant, type TestStack } from '../../support/stack';

describe('event patterns', () => {
  test.each([
    ['transactions.payment_link.*', 'transactions.payment_link.created', true],
    ['transactions.payment_link.*', 'transactions.payment_link.email.sent', true],
    ['transactions.payment_link.*', 'transactions.payment_link', false],
    ['transactions.payment_link.*', 'transactions.payment_links.created', false],
    ['transactions.payment_link.*', 'transactions.chargeback.open', false],
    ['transactions.*', 'transactions.refund.pending', true],
    ['*', 'transactions.chargeback.open', true],
    ['transactions.chargeback.open', 'transactions.chargeback.open', true],
    ['transactions.chargeback.open', 'transactions.chargeback.opened', false],
  ])('pattern %s vs type %s -> %s', (pattern, type, expected) => {
    expect(matchesPattern(pattern, type)).toBe(expected);
  });

  test.each(['*', 'transactions.*', 'transactions.payment_link.*', 'transactions.payment.paid'])('valid pattern %s', (pattern) => {
    expect(isEventPattern(pattern)).toBe(true);
  });

  test.each(['', 'transactions.*.created', 'transactions*', '.*', 'Transactions.paid', 'a..b', '**'])('invalid pattern %j', (pattern) => {
    expect(isEventPattern(pattern)).toBe(false);
  });

  test('signing secret: whsec_ + base64 of at least 24 random bytes, usable by Standard Webhooks', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(newSigningSecret()).not.toBe(secret);
    expect(() => new Webhook(secret)).not.toThrow();
  });
});

describe('ops webhook and event commands', () => {
  let stack: TestStack;
  let merchant: Merchant;
  const ops = (...argv: string[]) => runOps(opsCommands(), argv) as Promise<any>;

  beforeAll(async () => {
    stack = await startTestStack();
    merchant = await createMerchant(stack);
  });
  afterAll(() => stack.stop());

  test('webhook create prints the id and the secret once; the stored secret is the printed one, sealed', async () => {
    const created = await ops('webhook', 'create', '--org', merchant.orgId, '--mode', 'test', '--url', 'https://example.com/a', '--events', 'transactions.payment_link.*,transactions.chargeback.open');
    expect(created).toEqual({ id: expect.stringMatching(/^whk_[0-9a-z]{26}$/), secret: expect.stringMatching(/^whsec_/) });
    const stored = (await createWebhookRepository(stack.db, stack.tableName, stack.sealer).get(merchant.orgId, 'test', created.id))!;
    expect(stored).toMatchObject({ id: created.id, events: ['transactions.payment_link.*', 'transactions.chargeback.open'] });
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    expect(await createSigningSecrets(stack.db, stack.tableName, stack.sealer).signingSecrets(stored, new Date())).toEqual([created.secret]);
  });

  test('webhook list shows subscriptions of the org (per mode when asked) and never a secret', async () => {
    const org = await stack.directory.createOrganization('Listing org');
    const test = await ops('webhook', 'create', '--org', org.id, '--mode', 'test', '--url', 'https://example.com/t', '--events', '*');
    const live = await ops('webhook', 'create', '--org', org.id, '--mode', 'live', '--url', 'https://example.com/l', '--events', '*');
    const all = await ops('webhook', 'list', '--org', org.id);
    expect(all.data.map((s: any) => s.id).sort()).toEqual([test.id, live.id].sort());
    expect(JSON.stringify(all)).not.toContain('whsec_');
    expect(all.data.find((s: any) => s.id === test.id)).toEqual({
      id: test.id,
      org_id: org.id,
      mode: 'test',
      url: 'https://example.com/t',
      events: ['*'],
      description: null,
      status: 'enabled',
      created_at: expect.any(String),
    });
    const onlyLive = await ops('webhook', 'list', '--org', org.id, '--mode', 'live');
    expect(onlyLive.data.map((s: any) => s.id)).toEqual([live.id]);
  });

  test('webhook delete removes the subscription; deleting it again -> not found', async () => {
    const org = await stack.directory.createOrganization('Deleting org');
    const created = await ops('webhook', 'create', '--org', org.id, '--mode', 'test', '--url', 'https://example.com/d', '--events', '*');
    expect(await ops('webhook', 'delete', '--id', created.id)).toEqual({ id: created.id, deleted: true });
    expect((await ops('webhook', 'list', '--org', org.id)).data).toEqual([]);
    await expect(ops('webhook', 'delete', '--id', created.id)).rejects.toThrow(NotFoundError);
  });

  test('webhook create: unknown org -> not found; bad mode or no pattern -> usage; the API body rules: bad url 400, pattern matching nothing 422', async () => {
    const create = (org: string, mode: string, url: string, events: string) => ops('webhook', 'create', '--org', org, '--mode', mode, '--url', url, '--events', events);
    await expect(create('org_unknown', 'test', 'https://example.com', '*')).rejects.toThrow(NotFoundError);
    await expect(create(merchant.orgId, 'prod', 'https://example.com', '*')).rejects.toThrow(UsageError);
    await expect(create(merchant.orgId, 'test', 'mailto:x@example.com', '*')).rejects.toThrow(InvalidRequestError);
    for (const events of [',', ' ']) await expect(create(merchant.orgId, 'test', 'https://example.com', events)).rejects.toThrow(UsageError);
    // Malformed, or well-formed but matching nothing the service emits: the API's 422 on enabled_events.
    for (const events of ['a.*.b', 'transactions.refund.refundedd', 'payments.*', 'transactions.payment_link.*,unknown.type']) {
      await expect(create(merchant.orgId, 'test', 'https://example.com', events)).rejects.toThrow(BusinessRuleError);
    }
  });

  test('webhook create makes the API\'s endpoints: enabled, described, counted against the 16 of the organization and mode', async () => {
    const org = await stack.directory.createOrganization('Operator org');
    const created = await ops('webhook', 'create', '--org', org.id, '--mode', 'live', '--url', 'https://example.com/ops', '--events', 'transactions.refund.*', '--description', 'By the operator');
    const stored = (await createWebhookRepository(stack.db, stack.tableName, stack.sealer).get(org.id, 'live', created.id))!;
    expect(stored).toMatchObject({ status: 'enabled', description: 'By the operator', events: ['transactions.refund.*'] });
    expect(await createSigningSecrets(stack.db, stack.tableName, stack.sealer).signingSecrets(stored, new Date())).toEqual([created.secret]);
    for (let n = 1; n < 16; n++) await ops('webhook', 'create', '--org', org.id, '--mode', 'live', '--url', `https://example.com/${n}`, '--events', '*');
    await expect(ops('webhook', 'create', '--org', org.id, '--mode', 'live', '--url', 'https://example.com/17', '--events', '*')).rejects.toThrow(/at most 16/);
    await ops('webhook', 'delete', '--id', created.id);
    expect(await ops('webhook', 'create', '--org', org.id, '--mode', 'live', '--url', 'https://example.com/again', '--events', '*')).toEqual({ id: expect.any(String), secret: expect.any(String) });
  });

  test('webhook url-secret: one secret per org and mode, created once even when asked concurrently', async () => {
    const repository = createSigningSecrets(stack.db, stack.tableName, stack.sealer);
    const [a, b] = await Promise.all([repository.urlSecret(merchant.orgId, 'live'), repository.urlSecret(merchant.orgId, 'live')]);
    expect(a).toBe(b);
    const printed = await ops('webhook', 'url-secret', '--org', merchant.orgId, '--mode', 'live');
    expect(printed).toEqual({ org: merchant.orgId, mode: 'live', secret: a });
    expect(await repository.urlSecret(merchant.orgId, 'test')).not.toBe(a);
  });

  test('event resend: unknown event -> not found; a known one gets a replay request next to it', async () => {
    await expect(ops('event', 'resend', '--id', 'evt_00000000000000000000000000')).rejects.toThrow(NotFoundError);
    const event = newEvent({ type: 'transactions.payment_link.created', orgId: merchant.orgId, mode: 'test', data: { id: 'pl_x' } });
    await stack.db.send(new TransactWriteCommand({ TransactItems: [outboxPut(stack.tableName, event)] }));
    const resent = await ops('event', 'resend', '--id', event.envelope.id);
    expect(resent).toEqual({ id: event.envelope.id, resend_id: expect.any(String) });
    const item = await stack.db.send(
      new GetCommand({ TableName: stack.tableName, Key: keys.eventResend(event.envelope.id, resent.resend_id) }),
    );
    // It keeps the envelope packed, as the event item does.
    expect(item.Item!.envelope).toBeInstanceOf(Uint8Array);
    expect(withStoredEnvelope(item.Item!)).toMatchObject({ envelope: event.envelope, orgId: merchant.orgId, resendId: resent.resend_id });
  });
});
