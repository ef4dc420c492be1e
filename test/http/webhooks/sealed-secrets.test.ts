import { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { readSynthesizedStack, functionOfRoute } from '../../../bin/local/aws/template';
import * as keys from '../../../shared/db/keys';
import { webhookSubscriptionEntity, webhookUrlSecretEntity } from '../../../shared/db/entities';
import { createSigningSecrets } from '../../../shared/db/webhook-repository';
import { SealedSecretMismatchError } from '../../../shared/domain/sealing';
import { endpointSecretContext, newSigningSecret, SIGNING_SECRET_PREFIX, type WebhookSubscription } from '../../../shared/domain/webhooks';
import { client } from '../../support/http';
import { createMerchant, startTestStack, type Api, type Merchant, type TestStack } from '../../support/stack';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Webhook signing secrets at rest (issue 37 item 4): sealed with the stage's KMS key under a
 * context naming their endpoint (or their organization and mode), on every path that makes one
 * (the API's creation and roll, their kept answers for replays, `ops webhook create`, the
 * per-object URLs' secret); opened only by the functions whose declarations say so, as the
 * local KMS decides from the template's grants; items written in plain before sealed by
 * `ops webhook seal-secrets`.
 */
let stack: TestStack;
let receiver: WebhookReceiver;
let merchant: Merchant;
let api: Api;
const ops = (...argv: string[]) => runOps(opsCommands(), argv) as Promise<any>;

beforeAll(async () => {
  stack = await startTestStack({ background: true, env: { WEBHOOK_RETRY_SCHEDULE: '0.2,0.4,0.8' } });
  receiver = await startWebhookReceiver();
  merchant = await createMerchant(stack);
  api = client(stack.baseUrl, merchant.test);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** Every item of the stack's table, as DynamoDB holds it. */
async function everyItem(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await stack.db.send(new ScanCommand({ TableName: stack.tableName, ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** The items holding a secret in plain, whole or its key alone (the base64 after `whsec_`). */
async function itemsHolding(secrets: string[]): Promise<unknown[]> {
  const forms = secrets.flatMap((secret) => [secret, secret.slice(SIGNING_SECRET_PREFIX.length)]);
  return (await everyItem()).filter((item) => forms.some((form) => JSON.stringify(item).includes(form)));
}

const storedEndpoint = async (id: string, mode: 'test' | 'live' = 'test') =>
  (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.webhookSubscription(merchant.orgId, mode, id) }))).Item as WebhookSubscription & Record<string, unknown>;

/** A KMS client at the stack's edge that calls as the function of `logicalId` (its access key id). */
const kmsAs = (logicalId: string) => new KMSClient({ endpoint: stack.aws.awsEndpoint, region: 'local', credentials: { accessKeyId: logicalId, secretAccessKey: 'test' } });


describe('sealed at rest', () => {
  test('no stored item holds a signing secret in plain after a creation (replayed), a roll, `ops webhook create` and the per-object URLs\' secret', async () => {
    // Act
    const body = { url: receiver.url, enabled_events: ['transactions.payment_link.created'] };
    const created = await api.post('/v1/webhook_endpoints', body, { 'idempotency-key': 'sealed-create' });
    const replayed = await api.post('/v1/webhook_endpoints', body, { 'idempotency-key': 'sealed-create' });
    const rolled = await api.post(`/v1/webhook_endpoints/${created.body.id}/roll_secret`, {}, { 'idempotency-key': 'sealed-roll' });
    const rolledAgain = await api.post(`/v1/webhook_endpoints/${created.body.id}/roll_secret`, {}, { 'idempotency-key': 'sealed-roll' });
    const byOperator = await ops('webhook', 'create', '--org', merchant.orgId, '--mode', 'live', '--url', 'https://hooks.example/operator', '--events', '*');
    const urlSecret = (await ops('webhook', 'url-secret', '--org', merchant.orgId, '--mode', 'test')).secret as string;
    // Assess: the answers show the secrets, a replay the same bytes
    expect([created.status, rolled.status]).toEqual([201, 200]);
    expect(replayed.text).toBe(created.text);
    expect(rolledAgain.text).toBe(rolled.text);
    const shown = [created.body.secret, rolled.body.secret, byOperator.secret, urlSecret];
    for (const secret of shown) expect(secret).toMatch(/^whsec_/);
    // Assess: no item holds one, the endpoint's items hold them sealed
    expect(await itemsHolding(shown)).toEqual([]);
    const endpoint = await storedEndpoint(created.body.id);
    expect(endpoint).toMatchObject({ sealedSecret: expect.any(String), sealedPreviousSecret: expect.any(String) });
    expect(endpoint).not.toHaveProperty('secret');
    expect(endpoint).not.toHaveProperty('previousSecret');
  });

  test('the deliverer opens them: a delivery verifies with the secret the creation showed, after a roll with both', async () => {
    // Prepare: an organization of its own, whose deliveries alone are this endpoint's
    const own = await createMerchant(stack);
    const api = client(stack.baseUrl, own.test);
    const endpoint = (await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['transactions.payment_link.created'] })).body;
    const link = (await api.post('/v1/payment_links', { amount: { value: '1.00', currency: 'EUR' }, acceptor_id: own.acceptorId })).body;
    await receiver.waitFor(() => receiver.delivered().some((request) => request.envelope.data.id === link.id), 'the first delivery', 60_000);
    const rolled = (await api.post(`/v1/webhook_endpoints/${endpoint.id}/roll_secret`, {})).body;
    // Act
    const next = (await api.post('/v1/payment_links', { amount: { value: '2.00', currency: 'EUR' }, acceptor_id: own.acceptorId })).body;
    await receiver.waitFor(() => receiver.delivered().some((request) => request.envelope.data.id === next.id), 'the delivery after the roll', 60_000);
    // Assess
    const first = receiver.requests.find((request) => request.envelope?.data.id === link.id)!;
    const afterRoll = receiver.requests.find((request) => request.envelope?.data.id === next.id)!;
    expect(receiver.verify(first, endpoint.secret)).toEqual(first.envelope);
    expect(afterRoll.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(receiver.verify(afterRoll, rolled.secret)).toEqual(afterRoll.envelope);
    expect(receiver.verify(afterRoll, endpoint.secret)).toEqual(afterRoll.envelope);
  }, 150_000);
});

describe('opened only where declared', () => {
  test('a function without the grant cannot open a sealed secret (AccessDeniedException, as KMS answers); the deliverer can', async () => {
    // Prepare
    const created = (await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/grants', enabled_events: ['*'] })).body;
    const { sealedSecret } = await storedEndpoint(created.id);
    const decrypt = { CiphertextBlob: Buffer.from(sealedSecret, 'base64'), EncryptionContext: { ...endpointSecretContext({ orgId: merchant.orgId, id: created.id }) } };
    // The template the stack runs: the bundles' in artifact mode, the run's source template otherwise.
    const { resources } = readSynthesizedStack(process.env.LAMBDA_ARTIFACTS ?? process.env.LOCAL_SOURCE_TEMPLATE!);
    const lister = functionOfRoute(resources, 'GET /v1/webhook_endpoints');
    const [deliverer] = Object.keys(resources).filter((id) => resources[id].Type === 'AWS::Lambda::Function' && id.startsWith('WebhooksDeliverer'));
    const [refused, allowed] = [kmsAs(lister), kmsAs(deliverer)];
    try {
      // Act and assess
      await expect(refused.send(new DecryptCommand(decrypt))).rejects.toMatchObject({ name: 'AccessDeniedException', message: expect.stringContaining('kms:Decrypt') });
      expect(stack.aws.recentDenials().at(-1)).toMatchObject({ action: 'kms:Decrypt', reason: 'no identity-based policy allows the kms:Decrypt action' });
      const opened = await allowed.send(new DecryptCommand(decrypt));
      expect(Buffer.from(opened.Plaintext!).toString('utf8')).toBe(created.secret);
    } finally {
      refused.destroy();
      allowed.destroy();
    }
  });

  test("the encryption context binds a sealed secret to its endpoint: one copied onto another endpoint's item does not open there", async () => {
    // Prepare: b's item given a's sealed secret
    const [a, b] = [
      (await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/a', enabled_events: ['*'] })).body,
      (await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example/b', enabled_events: ['*'] })).body,
    ];
    const { sealedSecret } = await storedEndpoint(a.id);
    await stack.db.send(
      new UpdateCommand({
        TableName: stack.tableName,
        Key: keys.webhookSubscription(merchant.orgId, 'test', b.id),
        UpdateExpression: 'SET sealedSecret = :swapped',
        ExpressionAttributeValues: { ':swapped': sealedSecret },
      }),
    );
    const secrets = createSigningSecrets(stack.db, stack.tableName, stack.sealer);
    // Act and assess
    expect(await secrets.signingSecrets(await storedEndpoint(a.id), new Date())).toEqual([a.secret]);
    await expect(secrets.signingSecrets(await storedEndpoint(b.id), new Date())).rejects.toBeInstanceOf(SealedSecretMismatchError);
  });
});

describe('items written before secrets were sealed', () => {
  test('deliveries sign with a plain secret until `ops webhook seal-secrets` seals it; it seals each once, endpoints and per-object URL secrets, and the same secrets open', async () => {
    // Prepare: an endpoint with a rolled pair and a URL secret, in plain, as items were written before
    const org = await createMerchant(stack);
    const [plain, previous, urlPlain] = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
    const now = new Date().toISOString();
    const legacy = {
      id: 'whk_00000000000000000000000001',
      orgId: org.orgId,
      mode: 'test' as const,
      url: receiver.url,
      events: ['transactions.payment_link.created'],
      description: null,
      status: 'enabled',
      secret: plain,
      previousSecret: previous,
      previousSecretExpiresAt: new Date(Date.now() + 3_600_000).toISOString(),
      createdAt: now,
      updatedAt: now,
    };
    await stack.db.send(new PutCommand({ TableName: stack.tableName, Item: webhookSubscriptionEntity.item(legacy as unknown as WebhookSubscription) }));
    await stack.db.send(new PutCommand({ TableName: stack.tableName, Item: { ...webhookUrlSecretEntity.item({ orgId: org.orgId, mode: 'test', createdAt: now } as never), secret: urlPlain } }));
    const link = (await client(stack.baseUrl, org.test).post('/v1/payment_links', { amount: { value: '3.00', currency: 'EUR' }, acceptor_id: org.acceptorId })).body;
    await receiver.waitFor(() => receiver.delivered().some((request) => request.envelope.data.id === link.id), 'the delivery to the plain item', 60_000);
    const delivered = receiver.requests.find((request) => request.envelope?.data.id === link.id)!;
    expect(receiver.verify(delivered, plain)).toEqual(delivered.envelope);
    expect(receiver.verify(delivered, previous)).toEqual(delivered.envelope);

    // Act
    const first = await ops('webhook', 'seal-secrets');
    const again = await ops('webhook', 'seal-secrets');

    // Assess
    expect(first).toEqual({ sealed: 2 });
    expect(again).toEqual({ sealed: 0 });
    expect(await itemsHolding([plain, previous, urlPlain])).toEqual([]);
    const secrets = createSigningSecrets(stack.db, stack.tableName, stack.sealer);
    const sealed = (await stack.db.send(new GetCommand({ TableName: stack.tableName, Key: keys.webhookSubscription(org.orgId, 'test', legacy.id) }))).Item as WebhookSubscription;
    expect(await secrets.signingSecrets(sealed, new Date())).toEqual([plain, previous]);
    expect(await secrets.urlSecret(org.orgId, 'test')).toBe(urlPlain);
  }, 120_000);
});
