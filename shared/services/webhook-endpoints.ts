import { createWebhookRepository } from '../db/webhook-repository';
import { webhookEndpointUseCases } from '../use-cases/webhook-endpoints';
import { createWebhookUrlCheck } from '../webhooks/http-sender';
import { webhookSettingsHere } from '../webhooks/settings';
import type { SecretSealer } from '../domain/sealing';
import { secretSealer } from './sealing';
import { once, processWiring, type Wiring } from './wiring';

/**
 * The webhook endpoint use cases on a table: the API's and `ops webhook create`'s. A creation
 * and a roll seal the new secret with `sealer` (the routes that create or roll declare
 * `sealedSecrets: ['seal']`).
 */
export const webhookEndpointsFor = ({ db, tableName, now }: Wiring, sealer: SecretSealer = secretSealer()) =>
  webhookEndpointUseCases({ endpoints: createWebhookRepository(db, tableName, sealer), checkUrl: createWebhookUrlCheck(webhookSettingsHere()), now });

export const webhookEndpointServices = /* @__PURE__ */ once(() => webhookEndpointsFor(processWiring()));
