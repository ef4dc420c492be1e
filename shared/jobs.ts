import { z } from 'zod';

/**
 * The minute jobs. The EventBridge schedule runs all of them every minute (functions/run-jobs),
 * the local stack runs them on a timer, and `ops job run NAME` and the test helper
 * `POST /v1/test_helpers/jobs/:name` run one now. Each returns how many items it processed.
 * The composition root (shared/services.ts) lists them.
 */
export interface Job {
  name: string;
  run(now: Date): Promise<number>;
}

export function findJob(jobs: Job[], name: string): Job | undefined {
  return jobs.find((job) => job.name === name);
}

/** Runs every job once; a failing job does not stop the others. */
export async function runAllJobs(jobs: Job[], now = new Date()): Promise<{ name: string; processed?: number; error?: string }[]> {
  return Promise.all(
    jobs.map(async (job) => {
      try {
        return { name: job.name, processed: await job.run(now) };
      } catch (error) {
        return { name: job.name, error: (error as Error).message };
      }
    }),
  );
}

/** The answer of `POST /v1/test_helpers/jobs/:name` (output). */
export const JobRunSchema = z
  .strictObject({ object: z.literal('job_run'), name: z.string(), processed: z.number().int().nonnegative() })
  .meta({ id: 'JobRun', description: 'One run of a minute job and how many items it processed.' });

export const jobRunResource = (name: string, processed: number): z.infer<typeof JobRunSchema> => ({ object: 'job_run', name, processed });
