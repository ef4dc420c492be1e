import { JobRunSchema } from '../jobs';
import { ANY_KEY, NoQuery, defineOperation, pathParam } from './operation';

export const testHelperRunJob = /* @__PURE__ */ defineOperation({
  method: 'POST',
  path: '/v1/test_helpers/jobs/{name}',
  handler: 'test-helper-run-job',
  audit: { action: 'job_run.created', target: 'none' },
  table: 'write',
  auth: { scope: ANY_KEY, mode: 'test' },
  params: pathParam('name', 'The job name.', 'expire-payment-links'),
  query: NoQuery,
  tag: 'Test helpers',
  summary: 'Run a minute job now',
  description: 'Runs one of `expire-payment-links`, `expire-open-payments`, `remind-chargeback-deadlines`, `accept-overdue-chargebacks`, `process-refunds`, `fail-overdue-reports` once.',
  success: { status: 200, description: 'The run.', schema: JobRunSchema },
  errors: { 404: { description: 'No job of that name, or a live key.' } },
});
