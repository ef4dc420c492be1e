import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { EventType } from '../domain/event-types';
import type { EventEnvelope } from '../events';
import { DIMENSION, METRIC, SERVICE_NAME } from './catalog';

// The stack sets the namespace on every function; without one (npm start, tests) nothing is
// emitted, so local stdout carries no EMF documents. An explicit POWERTOOLS_METRICS_DISABLED wins.
if (!process.env.POWERTOOLS_METRICS_NAMESPACE) process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

/** One EMF metrics buffer per process, flushed at the end of each invocation by `logMetrics`. */
export const metrics = new Metrics({ serviceName: SERVICE_NAME });

/** Counts one occurrence of `name`; with a dimension, as its own EMF document (so it never leaks onto other metrics). */
export function countMetric(name: string, dimension?: CountedMetric['dimension'], value = 1): void {
  if (!dimension) {
    metrics.addMetric(name, MetricUnit.Count, value);
    return;
  }
  const single = metrics.singleMetric();
  single.addDimension(dimension.name, dimension.value);
  single.addMetric(name, MetricUnit.Count, value);
}

export function recordDuration(name: string, milliseconds: number): void {
  metrics.addMetric(name, MetricUnit.Milliseconds, milliseconds);
}

export function recordAge(name: string, seconds: number): void {
  metrics.addMetric(name, MetricUnit.Seconds, seconds);
}

/** Outbox event types that count a business metric, each once (declared types only: shared/domain/event-types.ts). */
const COUNTED_EVENTS: Record<string, string> = {
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
} satisfies Partial<Record<EventType, string>>;

type CountedMetric = { name: string; dimension?: { name: string; value: string } };

/**
 * The business metrics an outbox event stands for. Counted where every committed event passes
 * exactly once (the stream publisher), so no use case has to remember to count.
 */
export function businessMetricsOf(envelope: Pick<EventEnvelope, 'type' | 'data'>): CountedMetric[] {
  const name = COUNTED_EVENTS[envelope.type];
  if (!name) return [];
  if (name === METRIC.checkoutsDenied) return [{ name, dimension: { name: DIMENSION.reason, value: String(envelope.data.reason) } }];
  if (name === METRIC.refundsCreated && envelope.data.on_hold) return [{ name }, { name: METRIC.refundsHeld }];
  return [{ name }];
}
