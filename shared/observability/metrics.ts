import type { EventType } from '../domain/event-types';
import type { EventEnvelope } from '../events';
import { DIMENSION, METRIC, SERVICE_NAME } from './catalog';

type Unit = 'Count' | 'Milliseconds' | 'Seconds';
type Dimension = { name: string; value: string };

/** CloudWatch's limits on one EMF document: 100 metrics, 100 values each. */
const MAX_METRICS = 100;
const MAX_VALUES = 100;

/**
 * Metrics in CloudWatch's embedded metric format, dimension `service` (docs/operations.md
 * "Metrics"): buffered per invocation and written by `publishStoredMetrics`, one document for
 * those of `service` alone and one for each value of a dimension of their own (a deliverer's
 * batch of attempts, all `delivered`, is one document of its values, not one a value: the same
 * data points, a tenth of the log bytes). Written only under the namespace the stack sets on
 * every function (`METRICS_NAMESPACE`), and not with `METRICS_DISABLED=true` (the local stack's
 * source mode sets it: its functions share one output, where no CloudWatch reads them).
 * Hand-written for the same reason as the logger (docs/decisions.md 27).
 */
class EmbeddedMetrics {
  /** Per document: none for `service` alone, else its dimension's name and value. */
  private stored = new Map<string, { dimension?: Dimension; metrics: Map<string, StoredMetric> }>();

  add(name: string, unit: Unit, value: number, dimension?: Dimension): void {
    if (!namespace()) return;
    const key = dimension ? `${dimension.name}=${dimension.value}` : '';
    // A full document is written with the others first, and this value starts a new one.
    const full = this.stored.get(key)?.metrics;
    if (full && !full.has(name) && full.size === MAX_METRICS) this.publishStoredMetrics();
    const document = this.stored.get(key) ?? { dimension, metrics: new Map<string, StoredMetric>() };
    const metric = document.metrics.get(name) ?? { unit, values: [] };
    metric.values.push(value);
    document.metrics.set(name, metric);
    this.stored.set(key, document);
    if (metric.values.length === MAX_VALUES) this.publishStoredMetrics();
  }

  publishStoredMetrics(): void {
    const documents = [...this.stored.values()];
    this.stored = new Map();
    for (const { metrics, dimension } of documents) write([...metrics], dimension);
  }
}

type StoredMetric = { unit: Unit; values: number[] };

const namespace = (): string | undefined => (process.env.METRICS_DISABLED === 'true' ? undefined : process.env.METRICS_NAMESPACE);

function write(metrics: [string, StoredMetric][], dimension?: Dimension): void {
  const document = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: namespace(),
          Dimensions: [dimension ? ['service', dimension.name] : ['service']],
          Metrics: metrics.map(([name, { unit }]) => ({ Name: name, Unit: unit })),
        },
      ],
    },
    service: SERVICE_NAME,
    ...(dimension ? { [dimension.name]: dimension.value } : {}),
    ...Object.fromEntries(metrics.map(([name, { values }]) => [name, values.length === 1 ? values[0] : values])),
  };
  process.stdout.write(`${JSON.stringify(document)}\n`);
}

/** One EMF metrics buffer per process, flushed at the end of each invocation. */
export const metrics = new EmbeddedMetrics();

/** Counts one occurrence of `name`; with a dimension, in the document of that dimension's value (so it never leaks onto other metrics). */
export function countMetric(name: string, dimension?: CountedMetric['dimension'], value = 1): void {
  metrics.add(name, 'Count', value, dimension);
}

export function recordDuration(name: string, milliseconds: number): void {
  metrics.add(name, 'Milliseconds', milliseconds);
}

export function recordAge(name: string, seconds: number): void {
  metrics.add(name, 'Seconds', seconds);
}

/** Outbox event types that count a business metric, each once (declared types only: shared/domain/event-types.ts). */
const COUNTED_EVENTS: Record<string, string> = /* @__PURE__ */ (() =>
  ({
    'transactions.payment_link.checkout.requested': METRIC.checkoutsOpened,
    'transactions.payment_link.checkout.denied': METRIC.checkoutsDenied,
    'transactions.payment.paid': METRIC.paymentsPaid,
    'transactions.payment_link.auto_inactivated': METRIC.linksAutoInactivated,
    'transactions.payment_link.expired': METRIC.linksExpired,
    // Every refund is created pending (a funded one moves on to processing at once).
    'transactions.refund.pending': METRIC.refundsCreated,
    'transactions.refund.canceled': METRIC.refundsCanceled,
    'transactions.refund.failed': METRIC.refundsFailed,
    'transactions.chargeback.open': METRIC.chargebacksOpened,
  }) satisfies Partial<Record<EventType, string>>)();

type CountedMetric = { name: string; dimension?: Dimension };

/**
 * The business metrics an outbox event stands for. Counted where every committed event passes
 * exactly once (the outbox processor), so no use case has to remember to count.
 */
export function businessMetricsOf(envelope: Pick<EventEnvelope, 'type' | 'data'>): CountedMetric[] {
  const name = COUNTED_EVENTS[envelope.type];
  if (!name) return [];
  if (name === METRIC.checkoutsDenied) return [{ name, dimension: { name: DIMENSION.reason, value: String(envelope.data.reason) } }];
  if (name === METRIC.refundsCreated && envelope.data.on_hold) return [{ name }, { name: METRIC.refundsHeld }];
  return [{ name }];
}
