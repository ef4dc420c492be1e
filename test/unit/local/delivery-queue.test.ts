import type { DeliveryOutcome, DeliveryTask } from '../../../shared/domain/webhook-delivery';
import { createLocalDeliveryQueue, type LocalWebhookService } from '../../../bin/local/delivery-queue';
import { waitUntil } from '../../support/wait';

/** The queue's own rules, with an in-memory service: claims, attempts, persistence failures. */
const task = (id: string): DeliveryTask => ({
  kind: 'webhook_delivery',
  event: { envelope: { id, object: 'event', type: 't', triggered_at: '', version: '', mode: 'test', data: {} }, orgId: 'org_x' },
  target: { key: `whk_${id}`, url: `http://127.0.0.1/${id}` },
  attempt: 1,
  history: [],
});

function fakeService(overrides: { claim?: (task: DeliveryTask) => Promise<boolean>; deliver?: (task: DeliveryTask) => Promise<DeliveryOutcome>; reschedule?: () => Promise<void> }) {
  const delivered: string[] = [];
  const service = {
    deliveries: {
      claim: overrides.claim ?? (async () => true),
      reschedule: overrides.reschedule ?? (async () => undefined),
      pending: async () => [],
    },
    deliver:
      overrides.deliver ??
      (async (t: DeliveryTask): Promise<DeliveryOutcome> => {
        delivered.push(`${t.event.envelope.id}#${t.attempt}`);
        return { kind: 'delivered', task: t };
      }),
  } as unknown as LocalWebhookService;
  return { service, delivered };
}

test('queue: when one claim fails, the deliveries whose claims were taken still run, and the error surfaces', async () => {
  const { service, delivered } = fakeService({ claim: async (t) => (t.event.envelope.id === 'evt_b' ? Promise.reject(new Error('table down')) : true) });
  const queue = createLocalDeliveryQueue(service);
  await expect(queue.enqueue([task('evt_a'), task('evt_b')])).rejects.toThrow('table down');
  await waitUntil(() => delivered.length > 0, 'the delivery whose claim was taken');
  expect(delivered).toEqual(['evt_a#1']);
  await queue.stop();
});

test('queue: a retry whose due time cannot be stored still runs once, as the next attempt', async () => {
  const attempts: number[] = [];
  const { service } = fakeService({
    deliver: async (t) => {
      attempts.push(t.attempt);
      return t.attempt === 1 ? { kind: 'retry', task: { ...t, attempt: 2 }, delayMs: 10 } : { kind: 'delivered', task: t };
    },
    reschedule: async () => Promise.reject(new Error('table down')),
  });
  const queue = createLocalDeliveryQueue(service);
  await queue.enqueue([task('evt_c')]);
  await waitUntil(() => attempts.length >= 2, 'the second attempt');
  expect(attempts).toEqual([1, 2]);
  await queue.stop();
});

test('queue: an organization whose endpoint never answers holds at most its own slots; another organization is served at once', async () => {
  const inFlight = new Map<string, number>();
  let release!: () => void;
  const stuck = new Promise<void>((done) => (release = done));
  const delivered: string[] = [];
  const { service } = fakeService({
    deliver: async (t) => {
      inFlight.set(t.event.orgId, (inFlight.get(t.event.orgId) ?? 0) + 1);
      if (t.event.orgId === 'org_noisy') await stuck;
      delivered.push(t.event.envelope.id);
      return { kind: 'delivered', task: t };
    },
  });
  const queue = createLocalDeliveryQueue(service, { concurrency: 8, perOrganization: 3 });
  const noisy = Array.from({ length: 50 }, (_, n) => ({ ...task(`evt_noisy_${n}`), event: { ...task(`evt_noisy_${n}`).event, orgId: 'org_noisy' } }));
  await queue.enqueue(noisy);
  await waitUntil(() => inFlight.get('org_noisy') === 3, "the noisy organization's slots taken");
  await queue.enqueue([task('evt_quiet')]);
  await waitUntil(() => delivered.length > 0, "the quiet organization's delivery");
  expect(delivered).toEqual(['evt_quiet']);
  expect(inFlight.get('org_noisy')).toBe(3);
  release();
  await queue.stop();
});

test('queue: an attempt the table keeps failing around is tried a bounded number of times, never in a loop', async () => {
  let calls = 0;
  const { service } = fakeService({
    deliver: async () => {
      calls++;
      throw new Error('table down');
    },
  });
  jest.useFakeTimers();
  try {
    const queue = createLocalDeliveryQueue(service);
    await queue.enqueue([task('evt_loop')]);
    for (let i = 0; i < 20; i++) await jest.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(5);
    await queue.stop();
  } finally {
    jest.useRealTimers();
  }
});
