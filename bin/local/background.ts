import { startEventPipeline } from './event-pipeline';

export interface BackgroundContext {
  dynamodbEndpoint: string;
  tableName: string;
  dataDir: string;
}

/** Starts a long-running local twin of some AWS machinery; resolves to its stop function. */
export type BackgroundTask = (context: BackgroundContext) => Promise<() => Promise<void>>;

/**
 * What `startLocalStack({ background: true })` runs besides the minute jobs; each part of the
 * service adds its own here.
 */
export const backgroundTasks: BackgroundTask[] = [
  // The outbox publisher (table stream) and webhook delivery.
  async (context) => (await startEventPipeline(context)).stop,
];
