import type { ApiEvent, ApiResult } from '../../shared/http/response';

/** One route's function behind API Gateway: the answer the client gets for an event. */
export type RouteInvoker = (event: ApiEvent) => Promise<ApiResult>;

/** API Gateway's catch-all route key: the requests no other route takes. */
export const DEFAULT_ROUTE_KEY = '$default';

/** A route the local API server serves: `handler` is what `loadHandler` takes. */
export interface ServedRoute {
  method: string;
  path: string;
  handler: string;
}

/**
 * The local stack's functions as the local AWS runs them (bin/local/aws/functions.ts), from the
 * TypeScript sources or from the bundles of a `cdk synth` output: the API routes, and the
 * schedules and event source mappings in the background.
 */
export interface LocalFunctions {
  routes: ServedRoute[];
  /** What answers a request no route takes (API Gateway's `$default` route): what `loadHandler` takes. */
  defaultRoute: string;
  loadHandler(name: string): Promise<RouteInvoker>;
  /** The minute jobs and the event machinery, until `stop`. */
  startBackground(): Promise<void>;
  /**
   * Without the background, still the table stream's rolling of pending credits into their
   * balances (the outbox processor; its events go nowhere): balances depend on it, as in AWS.
   */
  startCreditRolling(): Promise<void>;
  /** Every minute job once now, as the schedule would run them (tests need not wait a minute); with `at`, as of then. */
  runMinuteJobs(at?: Date): Promise<void>;
  stop(): Promise<void>;
}
