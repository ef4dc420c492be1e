import type { EventBridgeEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/middleware';
import type { ReportRequest } from '../../shared/report-requests';
import { reportBuildPorts } from '../../shared/services/reports';
import { buildReport } from '../../shared/use-cases/reports';

const ports = reportBuildPorts();

/**
 * The report builder (docs/architecture.md, "Reports"): invoked asynchronously by its bus rule
 * with one new report's request, it writes the report's file and its outcome. An invocation that
 * dies (its timeout) is retried by Lambda; the report, still pending, is built again.
 */
export const handler = observed(async (event: EventBridgeEvent<string, ReportRequest>): Promise<void> => {
  await buildReport(ports, event.detail.report_id);
});
