import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDeliveryRepository } from '../../shared/db/delivery-repository';
import { createSigningSecrets, createWebhookRepository, sealPlainSecrets } from '../../shared/db/webhook-repository';
import type { SecretSealer } from '../../shared/domain/sealing';
import { webhookEndpointCreateBody } from '../../shared/domain/webhook-endpoints';
import { subscriptionSummary } from '../../shared/domain/webhooks';
import { parseWith } from '../../shared/http/validation';
import { webhookEndpointsFor } from '../../shared/services/webhook-endpoints';
import { modeOption, UsageError, type OpsCommand } from './cli';

const list = (value: unknown) =>
  String(value)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/**
 * webhook create / list / delete / url-secret / seal-secrets, and event resend (product-decisions
 * §11). `sealer` seals and opens the signing secrets with the stage's key (SECRETS_KEY_ARN).
 */
export function webhookCommands(db: () => DynamoDBDocumentClient, tableName: string, sealer: () => SecretSealer): OpsCommand[] {
  const webhooks = () => createWebhookRepository(db(), tableName, sealer());
  const deliveries = () => createDeliveryRepository(db(), tableName);
  return [
    {
      words: 'webhook create',
      usage: '--org ORG --mode test|live --url URL --events P1,P2 [--description TEXT]   (prints the signing secret once)',
      options: {
        org: { type: 'string', required: true },
        mode: { type: 'string', required: true },
        url: { type: 'string', required: true },
        events: { type: 'string', required: true },
        description: { type: 'string' },
      },
      // The API's creation (POST /v1/webhook_endpoints): the same body rules, URL check and limit.
      run: async (values) => {
        const patterns = list(values.events);
        if (patterns.length === 0) throw new UsageError('--events needs at least one event pattern');
        const owner = { orgId: String(values.org), mode: modeOption(values.mode) };
        const body = parseWith(webhookEndpointCreateBody, { url: values.url, enabled_events: patterns, description: values.description }, 'body');
        const created = await webhookEndpointsFor({ db: db(), tableName, now: () => new Date() }, sealer()).create(owner, body);
        return { id: created.id, secret: created.secret };
      },
    },
    {
      words: 'webhook list',
      usage: '--org ORG [--mode test|live]',
      options: { org: { type: 'string', required: true }, mode: { type: 'string' } },
      run: async (values) => {
        const found = await webhooks().list(String(values.org), values.mode === undefined ? undefined : modeOption(values.mode));
        return { data: found.map(subscriptionSummary) };
      },
    },
    {
      words: 'webhook delete',
      usage: '--id WHK',
      options: { id: { type: 'string', required: true } },
      run: async (values) => ({ id: (await webhooks().delete(String(values.id))).id, deleted: true }),
    },
    {
      words: 'webhook url-secret',
      usage: '--org ORG --mode test|live   (the secret signing deliveries to refund/payment webhook_url endpoints)',
      options: { org: { type: 'string', required: true }, mode: { type: 'string', required: true } },
      run: async (values) => {
        const chosen = modeOption(values.mode);
        return { org: String(values.org), mode: chosen, secret: await createSigningSecrets(db(), tableName, sealer()).urlSecret(String(values.org), chosen) };
      },
    },
    {
      words: 'webhook seal-secrets',
      usage: '  (seals the signing secrets stored in plain before secrets were sealed; once per stage, again without harm)',
      options: {},
      run: async () => ({ sealed: await sealPlainSecrets(db(), tableName, sealer()) }),
    },
    {
      words: 'event resend',
      usage: '--id evt_…   (replays the event to its current matching subscriptions and per-object URLs)',
      options: { id: { type: 'string', required: true } },
      run: async (values) => {
        const requested = await deliveries().requestResend(String(values.id));
        return { id: requested.id, resend_id: requested.resendId };
      },
    },
  ];
}
