import { createHash, randomBytes } from 'node:crypto';
import type { Mode } from './principal';

/** `test_` or `live_` + 43 URL-safe characters (32 random bytes). */
export function newToken(mode: Mode): string {
  return `${mode}_${randomBytes(32).toString('base64url')}`;
}

export const TOKEN_PATTERN = /^(test|live)_[A-Za-z0-9_-]{32,}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
