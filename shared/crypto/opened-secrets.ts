import type { SealingContext, SecretSealer } from '../domain/sealing';

/** How long an opened secret is kept in an execution environment (docs/decisions.md 98). */
export const OPENED_SECRET_TTL_MS = 5 * 60_000;
/** At most this many opened secrets kept at once, the oldest dropped first: a few hundred bytes each. */
export const OPENED_SECRETS_KEPT = 1_000;

/**
 * A sealer that keeps what it opened for `ttlMs`, by sealed text and context, so that the
 * attempts of one warm execution environment open a secret once (one KMS Decrypt) rather than
 * once each. Keyed by the sealed text, a kept secret is never stale: a roll seals a new secret,
 * which is another key; a deleted or disabled endpoint is read from the table at every attempt
 * before its secret is asked for. The TTL bounds how long the plaintext stays in memory and how
 * long a disabled KMS key still signs from a warm environment. Concurrent opens of one secret
 * share one Decrypt; a failed open is not kept. Sealing passes through.
 */
export function keepingOpened(sealer: SecretSealer, options: { ttlMs: number; maxEntries: number; now?: () => number }): SecretSealer {
  const now = options.now ?? Date.now;
  const kept = new Map<string, { opened: Promise<string>; until: number }>();
  const keyOf = (sealed: string, context: SealingContext) =>
    `${sealed}\n${JSON.stringify(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`;

  return {
    seal: (plaintext, context) => sealer.seal(plaintext, context),
    open(sealed, context) {
      const key = keyOf(sealed, context);
      const entry = kept.get(key);
      if (entry && now() < entry.until) return entry.opened;
      kept.delete(key);
      const opened = sealer.open(sealed, context).catch((error: unknown) => {
        if (kept.get(key)?.opened === opened) kept.delete(key);
        throw error;
      });
      kept.set(key, { opened, until: now() + options.ttlMs });
      // A Map iterates in insertion order: its first key is the oldest.
      if (kept.size > options.maxEntries) kept.delete(kept.keys().next().value!);
      return opened;
    },
  };
}
