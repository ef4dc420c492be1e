import { services } from '../../shared/services';
import { logger } from '../../shared/http/logger';
import { runAllJobs } from '../../shared/jobs';

const { jobs } = services();

/** Invoked by the one-minute EventBridge schedule: runs every minute job once. */
export const handler = async (): Promise<void> => {
  const results = await runAllJobs(jobs);
  for (const result of results) {
    if (result.error) logger.error('job failed', { job: result.name, error: result.error });
    else logger.info('job ran', { job: result.name, processed: result.processed });
  }
  if (results.some((result) => result.error)) throw new Error('A minute job failed; see the log');
};
