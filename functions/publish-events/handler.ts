import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { createEventBridgePublisher } from '../../shared/webhooks/eventbridge-publisher';
import { observed } from '../../shared/observability/middleware';
import { createStreamPublishHandler } from '../../shared/webhooks/stream-handler';

const publisher = createEventBridgePublisher(new EventBridgeClient({}), process.env.EVENT_BUS_NAME!);

/** Table stream (INSERTs of outbox events and replay requests) -> EventBridge bus. */
export const handler = observed(createStreamPublishHandler(publisher));
