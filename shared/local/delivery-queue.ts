import type { DeliveryTask } from '../domain/webhook-delivery';
import { logger } from '../http/logger';
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
    try {
      const outcome = await service.deliver(task);
      if (outcome.kind === 'retry') {
        await store.reschedule(outcome.task, Date.now() + outcome.delayMs);
        schedule(outcome.task, outcome.delayMs);
      }
    } catch (error) {
      // The table itself failed (not the endpoint): try again soon, without counting an attempt.
      logger.error('local webhook delivery failed; retrying', { eventId: task.event.envelope.id, error: (error as Error).message });
      schedule(task, 1_000);
    }
  }

  return {
    async enqueue(tasks) {
      const now = Date.now();
      const claimed = await Promise.all(tasks.map((task) => store.claim(task, now)));
      tasks.forEach((task, index) => claimed[index] && schedule(task, 0));
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
