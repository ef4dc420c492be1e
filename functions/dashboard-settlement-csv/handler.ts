import { dashboardSettlementCsv } from '../../shared/api/pages';
import { dashboardSessionServices, settlementPorts } from '../../shared/services/dashboard';
import { recordsCsv } from '../../shared/domain/settlements';
import { dashboardPage } from '../../shared/dashboard/http';
import { settlementRecords } from '../../shared/use-cases/dashboard';

const sessions = dashboardSessionServices();
const reads = settlementPorts();

/**
 * GET /dashboard/settlements/{id}/records.csv: every record of the settlement as the
 * accountants' CSV (`ops settlement export`'s rows), as a download named after its code.
 */
export const handler = dashboardPage(dashboardSettlementCsv, sessions, async (request) => {
  const { settlement, records } = await settlementRecords(reads, request.principal, request.event.pathParameters?.id ?? '');
  return {
    status: 200,
    text: recordsCsv(records),
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="settlement-${settlement.code.replace(/[^A-Za-z0-9._-]/g, '_')}.csv"`,
    },
  };
});
