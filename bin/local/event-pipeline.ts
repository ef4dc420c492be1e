import { createDocumentClient } from '../../shared/db/client';
import { creditRollingFor } from '../../shared/services/balance';
import type { DeliveryTask, PublishedEvent, WebhookSender } from '../../shared/domain/webhook-delivery';
import { logger } from '../../shared/observability/logger';
import { LOCAL_WEBHOOK_SETTINGS, loadWebhookSettings, type WebhookSettings } from '../../shared/webhooks/settings';
import { createLocalDeliveryQueue, createLocalWebhookService } from './delivery-queue';
import { startStreamPublisher } from './stream-publisher';
import { mappingCheckpoints } from './table-stream';

/** How long an event's fan-out may keep failing (the table unreachable) before it is skipped. */
const FAN_OUT_PATIENCE_MS = 5 * 60_000;

export interface EventPipelineOptions {
  dynamodbEndpoint: string;
  tableName: string;
  /** Where the stream reader keeps its place (`:memory:`: nowhere; a restart reads the stream from its start, deliveries deduplicating). */
  dataDir: string;
  /** Default: LOCAL_WEBHOOK_SETTINGS overridden by the WEBHOOK_* environment variables. */
  settings?: WebhookSettings;
  sender?: WebhookSender;
  pollIntervalMs?: number;
  concurrency?: number;
}

export interface EventPipeline {
  stop(): Promise<void>;
}

/**
 * Events and webhooks in the local stack, with the same domain code as in AWS:
 * 1. resume the deliveries still pending in the table;
 * 2. read the table stream from the checkpoint (the outbox processor's twin: credits rolled into their balances, events published);
 * 3. fan each event out into one delivery per target (the bus, rule and fan-out step's twin);
 * 4. deliver, retry and dead-letter them in an in-process queue (the SQS queue's twin).
 */
export async function startEventPipeline(options: EventPipelineOptions): Promise<EventPipeline> {
  const db = createDocumentClient({ endpoint: options.dynamodbEndpoint });
  const settings = options.settings ?? loadWebhookSettings(process.env, LOCAL_WEBHOOK_SETTINGS);
  const service = createLocalWebhookService(db, options.tableName, settings, { sender: options.sender });
  const queue = createLocalDeliveryQueue(service, { concurrency: options.concurrency });
  await queue.recover();
  /**
   * Like the SQS queue's redrive: an event whose fan-out keeps failing does not hold up the
   * stream for ever. The publisher retries it every second; after five minutes of failures it is
   * skipped (and logged). It stays in the table, and `ops event resend` replays it.
   */
  const failingSince = new Map<string, number>();
  async function fanOut(event: PublishedEvent, plan: (event: PublishedEvent) => Promise<DeliveryTask[]>): Promise<void> {
    const key = `${event.envelope.id}#${event.resendId ?? ''}`;
    try {
      await queue.enqueue(await plan(event));
      failingSince.delete(key);
    } catch (error) {
      const since = failingSince.get(key) ?? Date.now();
      failingSince.set(key, since);
      if (Date.now() - since < FAN_OUT_PATIENCE_MS) throw error;
      failingSince.delete(key);
      logger.error('event skipped after repeated fan-out failures; replay it with ops event resend', {
        eventId: event.envelope.id,
        error: (error as Error).message,
      });
    }
  }

  const publisher = startStreamPublisher({
    endpoint: options.dynamodbEndpoint,
    tableName: options.tableName,
    checkpoints: mappingCheckpoints(options.dataDir, `${options.tableName}#outbox`),
    pollIntervalMs: options.pollIntervalMs,
    rollCredits: creditRollingFor({ db, tableName: options.tableName, now: () => new Date() }),
    publish: async (events) => {
      const plan = service.planner();
      await Promise.all(events.map((event) => fanOut(event, plan)));
    },
  });

  return {
    async stop() {
      await publisher.stop();
      await queue.stop();
      db.destroy();
    },
  };
}

/**
 * The outbox processor's twin without the deliveries (a stack without its background): pending
 * credits rolled into their balances; the events stay in the table, delivered to no one. Its
 * place in the stream is its own (in memory), as each AWS mapping's is: a pipeline started later
 * still reads every event.
 */
export function startCreditRolling(options: Pick<EventPipelineOptions, 'dynamodbEndpoint' | 'tableName'>): EventPipeline {
  const db = createDocumentClient({ endpoint: options.dynamodbEndpoint });
  const publisher = startStreamPublisher({
    endpoint: options.dynamodbEndpoint,
    tableName: options.tableName,
    rollCredits: creditRollingFor({ db, tableName: options.tableName, now: () => new Date() }),
    publish: async () => {},
    checkpoints: mappingCheckpoints(':memory:', 'credits'),
  });
  return {
    async stop() {
      await publisher.stop();
      db.destroy();
    },
  };
}
