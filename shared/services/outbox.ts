import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { createEventBridgeReportRequester } from '../report-requests';
import { createEventBridgePublisher } from '../webhooks/eventbridge-publisher';
import { once } from './wiring';

/** The outbox processor's bus (EVENT_BUS_NAME). */
export const eventBusPublisher = /* @__PURE__ */ once(() => createEventBridgePublisher(new EventBridgeClient({}), process.env.EVENT_BUS_NAME!));

/** The outbox processor's requests for report builds, on the same bus. */
export const reportRequester = /* @__PURE__ */ once(() => createEventBridgeReportRequester(new EventBridgeClient({}), process.env.EVENT_BUS_NAME!));
