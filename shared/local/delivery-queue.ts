import type { DeliveryTask } from '../domain/webhook-delivery';
import { logger } from '../observability/logger';
import type { WebhookService } from '../webhooks/delivery-service';

export interface LocalDeliveryQueue {
  /** Claims each delivery in the table (a duplicate publish claims nothing) and runs it now. */
  enqueue(tasks: DeliveryTask[]): Promise<void>;
  /** Schedules every delivery still pending in the table (after a restart). */
  recover(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The SQS webhook queue's local twin, running the same delivery use case. Each delivery is a
 * table item (claimed on enqueue, its next attempt on the sparse DUE index), so a restart
 * resumes pending deliveries; the timers and the concurrency limit are in memory. Every task
 * waits on its own timer and runs in its own slot, so a slow or failing endpoint never delays
 * another target's delivery beyond the slots it occupies.
 */
export function createLocalDeliveryQueue(service: WebhookService, options: { concurrency?: number } = {}): LocalDeliveryQueue {
  const concurrency = options.concurrency ?? 32;
  const store = service.deliveries;
  const timers = new Set<NodeJS.Timeout>();
  const ready: DeliveryTask[] = [];
  const running = new Set<Promise<void>>();
  let stopped = false;

  function schedule(task: DeliveryTask, delayMs: number) {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      ready.push(task);
      pump();
    }, Math.max(0, delayMs));
    timers.add(timer);
  }

  function pump() {
    while (!stopped && running.size < concurrency && ready.length > 0) {
      const run = attempt(ready.shift()!).finally(() => {
        running.delete(run);
        pump();
      });
      running.add(run);
    }
  }

  async function attempt(task: DeliveryTask): Promise<void> {
    let outcome;
    try {
      outcome = await service.deliver(task);
    } catch (error) {
      // The table failed before the attempt was recorded: try the same attempt again soon.
      logger.error('local webhook delivery failed; retrying', { eventId: task.event.envelope.id, error: (error as Error).message });
      schedule(task, 1_000);
      return;
    }
    if (outcome.kind !== 'retry') return;
    try {
      await store.reschedule(outcome.task, Date.now() + outcome.delayMs);
    } catch (error) {
      // The attempt was made and recorded; only its durable due time is missing. Keep the next
      // attempt in memory (a restart resumes from the previous due time at worst).
      logger.error('local webhook retry not persisted', { eventId: task.event.envelope.id, error: (error as Error).message });
    }
    schedule(outcome.task, outcome.delayMs);
  }

  return {
    async enqueue(tasks) {
      const now = Date.now();
      const claims = await Promise.allSettled(tasks.map((task) => store.claim(task, now)));
      // Schedule every claim that was taken, even when another failed: a retried fan-out finds
      // those claimed already and would not schedule them again.
      tasks.forEach((task, index) => {
        const claim = claims[index];
        if (claim.status === 'fulfilled' && claim.value) schedule(task, 0);
      });
      const failed = claims.find((claim) => claim.status === 'rejected');
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
    async recover() {
      const pending = await store.pending();
      const now = Date.now();
      for (const { task, dueAt } of pending) schedule(task, dueAt - now);
      return pending.length;
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(running);
    },
  };
}
