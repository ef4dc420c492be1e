import { createOutboxHandler } from '../../shared/outbox-handler';
import { observed } from '../../shared/observability/middleware';
import { creditRolling } from '../../shared/services/balance';
import { eventBusPublisher, reportRequester } from '../../shared/services/outbox';

/** Table stream (INSERTs of outbox events, replay requests, pending credits and reports) -> EventBridge bus, the balances, the report builder. */
export const handler = observed(createOutboxHandler(eventBusPublisher(), creditRolling(), reportRequester()));
