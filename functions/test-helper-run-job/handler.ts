import { testModeJobServices } from '../../shared/services/jobs';
import { testHelperRunJob } from '../../shared/api/jobs';
import { NotFoundError } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api';
import { findJob, jobRunResource } from '../../shared/jobs';

const jobs = testModeJobServices();

/** POST /v1/test_helpers/jobs/{name}: runs one minute job now (test keys only). */
export const handler = apiHandler(
  testHelperRunJob,
  async ({ principal, path }) => {
    const job = findJob(jobs, path.name);
    if (!job) throw new NotFoundError(`No job named ${path.name}`);
    return { status: 200, body: jobRunResource(job.name, await job.run(new Date(), { orgId: principal.orgId, mode: principal.mode })) };
  },
);
