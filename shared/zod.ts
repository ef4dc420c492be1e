import * as z from 'zod/mini';
import { en } from 'zod/locales';

/*
 * The service's zod: the functional `zod/mini` API over the same core as zod's classic API.
 * Classic schemas carry every method on their prototype, so one `z.object(...)` kept about
 * 97 KB of zod in each function; mini keeps only the functions a bundle calls (~30 KB).
 * Parsing, issues and the OpenAPI document (zod-openapi reads the core) are the same.
 * Import it as `import * as z from '<path>/zod'` (a lint rule refuses `zod` itself elsewhere).
 */

// Mini leaves the messages' locale to the application: the error envelopes quote the English
// ones the classic API configures.
z.config(en());

export * from 'zod/mini';

/**
 * Classic's `schema.meta(data)`: a clone of `schema` (its parent, for the JSON Schema's
 * `$ref`s) that carries `data` in the global registry, where zod-openapi reads ids,
 * descriptions and examples.
 */
export function withMeta<T extends z.ZodMiniType>(schema: T, data: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, data);
  return copy as T;
}
