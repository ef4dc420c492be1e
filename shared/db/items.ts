import { INDEXES, KEY } from './table';

const KEY_ATTRIBUTES = new Set<string>([KEY.pk, KEY.sk, ...Object.values(INDEXES).flatMap((index) => [index.pk, index.sk])]);

/** The stored record without the table's key attributes. */
export function stripKeys<T>(item: Record<string, unknown> | undefined): T | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !KEY_ATTRIBUTES.has(name))) as T;
}
