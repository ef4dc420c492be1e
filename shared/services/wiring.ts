import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { loadConfig } from '../config';
import { documentClient } from '../db/client';

/** What every adapter is built from: the table's client and name, and the clock. */
export interface Wiring {
  db: DynamoDBDocumentClient;
  tableName: string;
  now: () => Date;
}

/** Builds on first use, then answers the same value: one per process (per cold start). */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/** Builds on first use and shares that promise; a failed build is forgotten, so the next call builds again. */
export function onceAsync<T>(build: () => Promise<T>): () => Promise<T> {
  let building: Promise<T> | undefined;
  return () =>
    (building ??= build().catch((error: unknown) => {
      building = undefined;
      throw error;
    }));
}

/**
 * Builds on first use and shares that promise for `ttlMs`; the first call after builds again. A
 * failed build is forgotten at once, so the next call builds again.
 */
export function cachedFor<T>(ttlMs: number, build: () => Promise<T>, now: () => number = Date.now): () => Promise<T> {
  let cached: { value: Promise<T>; until: number } | undefined;
  return () => {
    if (cached && now() < cached.until) return cached.value;
    const value = build().catch((error: unknown) => {
      if (cached?.value === value) cached = undefined;
      throw error;
    });
    cached = { value, until: now() + ttlMs };
    return value;
  };
}

/** The deployed function's table and clock. */
export const processWiring = /* @__PURE__ */ once((): Wiring => ({ db: documentClient(), tableName: loadConfig().tableName, now: () => new Date() }));

/** The documents' bucket (evidence documents, report files) as the stack names it to this function, which must have been given it. */
export const documentsBucket = /* @__PURE__ */ once(() => {
  const { documentsBucket: bucket } = loadConfig();
  if (!bucket) throw new Error('DOCUMENTS_BUCKET is not set: this function has no access to the documents\' bucket');
  return bucket;
});
