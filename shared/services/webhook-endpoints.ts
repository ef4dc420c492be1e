import { createWebhookRepository } from '../db/webhook-repository';
import { webhookEndpointUseCases } from '../use-cases/webhook-endpoints';
import { createWebhookUrlCheck } from '../webhooks/http-sender';
import { webhookSettingsHere } from '../webhooks/settings';
import { once, processWiring, type Wiring } from './wiring';

/** The webhook endpoint use cases on a table: the API's and `ops webhook create`'s. */
export const webhookEndpointsFor = ({ db, tableName, now }: Wiring) =>
  webhookEndpointUseCases({ endpoints: createWebhookRepository(db, tableName), checkUrl: createWebhookUrlCheck(webhookSettingsHere()), now });

export const webhookEndpointServices = /* @__PURE__ */ once(() => webhookEndpointsFor(processWiring()));
