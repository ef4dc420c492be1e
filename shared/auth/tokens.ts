import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Mode } from './principal';

/** `test_` or `live_` + 43 URL-safe characters (32 random bytes). */
export function newToken(mode: Mode): string {
  return `${mode}_${randomBytes(32).toString('base64url')}`;
}

export const TOKEN_PATTERN = /^(test|live)_[A-Za-z0-9_-]{32,}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A link's token (an invitation's, a password reset's): the id of what it opens, a dot, and 32
 * random bytes. The id finds the item (one consistent GetItem), which holds only the token's
 * SHA-256; the random part is what makes the link a secret.
 */
export const newLinkToken = (id: string) => `${id}.${randomBytes(32).toString('base64url')}`;

/** The id a link token opens, when it has a link token's shape. */
export function linkTokenId(token: string): string | undefined {
  return /^([a-z]+_[0-9a-z]{26})\.[A-Za-z0-9_-]{43}$/.exec(token)?.[1];
}

/** Whether `token` is the one `storedHash` was made from (its SHA-256), compared in constant time. */
export function tokenMatches(token: string, storedHash: string | undefined): boolean {
  const given = Buffer.from(hashToken(token));
  const stored = Buffer.from(storedHash ?? '');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
