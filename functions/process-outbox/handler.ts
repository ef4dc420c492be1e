import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { createOutboxHandler } from '../../shared/outbox-handler';
import { observed } from '../../shared/observability/middleware';
import { creditRolling } from '../../shared/services/balance';
import { createEventBridgePublisher } from '../../shared/webhooks/eventbridge-publisher';

const publisher = createEventBridgePublisher(new EventBridgeClient({}), process.env.EVENT_BUS_NAME!);

/** Table stream (INSERTs of outbox events, replay requests and pending credits) -> EventBridge bus and the balances. */
export const handler = observed(createOutboxHandler(publisher, creditRolling()));
