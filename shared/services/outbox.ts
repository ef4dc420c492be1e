import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { createEventBridgePublisher } from '../webhooks/eventbridge-publisher';
import { once } from './wiring';

/** The outbox processor's bus (EVENT_BUS_NAME). */
export const eventBusPublisher = /* @__PURE__ */ once(() => createEventBridgePublisher(new EventBridgeClient({}), process.env.EVENT_BUS_NAME!));
