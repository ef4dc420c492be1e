import * as z from './zod';
import type { Mode } from './auth/principal';

/**
 * The minute jobs. The EventBridge schedule runs all of them every minute (functions/run-jobs),
 * the local stack runs them on a timer, and `ops job run NAME` and the test helper
 * `POST /v1/test_helpers/jobs/:name` run one now. Each returns how many items it processed.
 * The composition root (shared/services/) lists them.
 */
export interface Job {
  name: string;
  /** Processes what is due at `now`; with `only`, just that organization's items of that mode. */
  run(now: Date, only?: JobScope): Promise<number>;
}

/** The test helper's reach: the caller's organization in test mode (product-decisions §10). */
export interface JobScope {
  orgId: string;
  mode: Mode;
}

export const inJobScope = (item: { orgId: string; mode: Mode }, only: JobScope | undefined) =>
  !only || (item.orgId === only.orgId && item.mode === only.mode);

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
export const JobRunSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({ object: z.literal('job_run'), name: z.string(), processed: z.number().check(z.int(), z.nonnegative()) }),
    { id: 'JobRun', description: 'One run of a minute job and how many items it processed.' },
  ))();

export const jobRunResource = (name: string, processed: number): z.infer<typeof JobRunSchema> => ({ object: 'job_run', name, processed });
