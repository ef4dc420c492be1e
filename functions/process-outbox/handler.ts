import { createOutboxHandler } from '../../shared/outbox-handler';
import { observed } from '../../shared/observability/middleware';
import { creditRolling } from '../../shared/services/balance';
import { eventBusPublisher } from '../../shared/services/outbox';

/** Table stream (INSERTs of outbox events, replay requests and pending credits) -> EventBridge bus and the balances. */
export const handler = observed(createOutboxHandler(eventBusPublisher(), creditRolling()));
