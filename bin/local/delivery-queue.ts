import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDeliveryRepository } from '../../shared/db/delivery-repository';
import { isRequeued, tenantOf, type DeliveryTask, type WebhookSender } from '../../shared/domain/webhook-delivery';
import { logger } from '../../shared/observability/logger';
import { webhookServiceFor } from '../../shared/services/webhook-delivery';
import { logDeliveryOutcome } from '../../shared/webhooks/outcome-log';
import type { WebhookSettings } from '../../shared/webhooks/settings';

/** How often one attempt is tried again when the table fails before it, before it is left pending. */
const UNSTARTED_ATTEMPT_RETRIES = 5;

export interface LocalDeliveryQueue {
  /** Claims each delivery in the table (a duplicate publish claims nothing) and runs it now. */
  enqueue(tasks: DeliveryTask[]): Promise<void>;
  /** Schedules every delivery still pending in the table (after a restart). */
  recover(): Promise<number>;
  stop(): Promise<void>;
}

/** The delivery use cases as the local stack runs them: the table is their queue and their dead-letter store. */
export function createLocalWebhookService(db: DynamoDBDocumentClient, tableName: string, settings: WebhookSettings, adapters: { sender?: WebhookSender } = {}) {
  const deliveries = createDeliveryRepository(db, tableName);
  return { ...webhookServiceFor({ db, tableName }, settings, { ...adapters, deadLetters: deliveries }), deliveries };
}

export type LocalWebhookService = ReturnType<typeof createLocalWebhookService>;

/**
 * The SQS webhook queue's local twin, running the same delivery use case. Each delivery is a
 * table item (claimed on enqueue, its next attempt on the sparse DUE index), so a restart
 * resumes pending deliveries; the timers and the concurrency limit are in memory. Every task
 * waits on its own timer; ready tasks are taken round-robin across organizations (and modes),
 * each with at most `perOrganization` slots (the tenant's attempt slots in the table by default):
 * one organization's dead endpoint or burst of resends holds its own slots only, never another
 * organization's turn (SQS fair queues and the same slots in AWS).
 */
export function createLocalDeliveryQueue(
  service: LocalWebhookService,
  options: { concurrency?: number; perOrganization?: number } = {},
): LocalDeliveryQueue {
  const concurrency = options.concurrency ?? 32;
  const perOrganization = options.perOrganization ?? service.perTenant;
  const store = service.deliveries;
  const timers = new Set<NodeJS.Timeout>();
  /** Ready tasks per tenant, in turn order: the tenant served last moves to the back. */
  const ready = new Map<string, DeliveryTask[]>();
  const runningPerTenant = new Map<string, number>();
  const running = new Set<Promise<void>>();
  /** Attempts the table kept from starting, and how often in a row. */
  const unstarted = new Map<string, number>();
  let stopped = false;

  function schedule(task: DeliveryTask, delayMs: number) {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      const tenant = tenantOf(task);
      ready.set(tenant, [...(ready.get(tenant) ?? []), task]);
      pump();
    }, Math.max(0, delayMs));
    timers.add(timer);
  }

  /** The next task in turn among tenants that have a slot free. */
  function next(): DeliveryTask | undefined {
    for (const [tenant, tasks] of ready) {
      if ((runningPerTenant.get(tenant) ?? 0) >= perOrganization) continue;
      const task = tasks.shift()!;
      ready.delete(tenant);
      if (tasks.length) ready.set(tenant, tasks);
      return task;
    }
    return undefined;
  }

  function pump() {
    while (!stopped && running.size < concurrency) {
      const task = next();
      if (!task) return;
      const tenant = tenantOf(task);
      runningPerTenant.set(tenant, (runningPerTenant.get(tenant) ?? 0) + 1);
      const run = attempt(task).finally(() => {
        running.delete(run);
        runningPerTenant.set(tenant, runningPerTenant.get(tenant)! - 1);
        pump();
      });
      running.add(run);
    }
  }

  async function attempt(task: DeliveryTask): Promise<void> {
    let outcome;
    const key = `${task.event.envelope.id}#${task.target.key}#${task.attempt}`;
    try {
      outcome = await service.deliver(task);
      unstarted.delete(key);
    } catch (error) {
      // The table failed before anything was sent (reading the outcome or the secret): try the
      // same attempt again soon, a bounded number of times; then leave it to the table (its
      // claim stays pending, and a restart resumes it).
      const failures = (unstarted.get(key) ?? 0) + 1;
      const retry = failures < UNSTARTED_ATTEMPT_RETRIES;
      logger.error(retry ? 'local webhook delivery failed; retrying' : 'local webhook delivery failed; left pending', {
        eventId: task.event.envelope.id,
        failures,
        error: (error as Error).message,
      });
      if (retry) {
        unstarted.set(key, failures);
        schedule(task, 1_000 * failures);
      } else unstarted.delete(key);
      return;
    }
    logDeliveryOutcome(task, outcome);
    if (!isRequeued(outcome)) return;
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
