import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { BatchRetryOptions } from './webhooks/retry-batches';
import { putEntries } from './webhooks/eventbridge-publisher';

/**
 * How a report's builder is started (docs/architecture.md, "Reports"): the outbox processor puts
 * one bus event per new report, of this source and detail type, which no webhook rule takes
 * (theirs is the service events' source); the builder's rule invokes it with the event,
 * asynchronously, so the build runs in a function of its own, retried by Lambda if it dies.
 */
export const REPORT_REQUEST_SOURCE = 'payment-operations.reports';
export const REPORT_REQUEST_DETAIL_TYPE = 'report.requested';

/** The bus event's detail: the report to build. */
export interface ReportRequest {
  report_id: string;
}

/** Asks for reports to be built; answers the ids it could not ask for after retries. */
export type ReportRequester = (reportIds: string[]) => Promise<string[]>;

export function createEventBridgeReportRequester(client: EventBridgeClient, eventBusName: string, options: BatchRetryOptions = {}): ReportRequester {
  return (reportIds) =>
    putEntries(
      client,
      reportIds,
      (reportId) => ({ EventBusName: eventBusName, Source: REPORT_REQUEST_SOURCE, DetailType: REPORT_REQUEST_DETAIL_TYPE, Detail: JSON.stringify({ report_id: reportId } satisfies ReportRequest) }),
      options,
    );
}
