import type { Context } from 'aws-lambda';
import type { ApiEvent, ApiResult } from '../../shared/http/response';

export type LambdaHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** A route the local API server serves: `handler` is what `loadHandler` takes. */
export interface ServedRoute {
  method: string;
  path: string;
  handler: string;
}

/**
 * Where the local stack's functions come from: the TypeScript sources (the default) or the
 * bundles of a `cdk synth` output (artifact mode). Either serves the API routes and runs the
 * background machinery (minute jobs, event publishing and webhook delivery) its own way.
 */
export interface LocalFunctions {
  routes: ServedRoute[];
  loadHandler(name: string): Promise<LambdaHandler>;
  /** The minute jobs and the event machinery, until `stop`. */
  startBackground(): Promise<void>;
  /** Every minute job once now, as the schedule would run them (tests need not wait a minute). */
  runMinuteJobs(): Promise<void>;
  stop(): Promise<void>;
}
