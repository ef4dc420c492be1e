import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { logger } from '../../shared/http/logger';
import { createJobs, runAllJobs } from '../../shared/jobs';

const jobs = createJobs(documentClient(), loadConfig().tableName);

/** Invoked by the one-minute EventBridge schedule: runs every minute job once. */
export const handler = async (): Promise<void> => {
  const results = await runAllJobs(jobs);
  for (const result of results) {
    if (result.error) logger.error('job failed', { job: result.name, error: result.error });
    else logger.info('job ran', { job: result.name, processed: result.processed });
  }
  if (results.some((result) => result.error)) throw new Error('A minute job failed; see the log');
};
