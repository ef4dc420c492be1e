import { createHash, randomBytes } from 'node:crypto';

/**
 * Recovery codes (product-decisions §16): 10 at enrolment, each usable once instead of a TOTP
 * code, shown once and stored only as hashes. Each holds 80 random bits, written as 16 base32
 * characters in four groups (`7kq2-m9xd-…`): a one-way SHA-256 is then enough, as for API tokens
 * and session ids (no dictionary, 2^80 guesses), and a lookup needs no per-code salt. The
 * alphabet leaves out 0, 1, i, l and o, which read alike.
 */
export const RECOVERY_CODES = { count: 10, groups: 4, groupLength: 4 } as const;

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function randomCode(): string {
  const characters: string[] = [];
  const length = RECOVERY_CODES.groups * RECOVERY_CODES.groupLength;
  // Rejection sampling: bytes past the largest multiple of the alphabet's size would favour its first letters.
  const limit = 256 - (256 % ALPHABET.length);
  while (characters.length < length) {
    for (const byte of randomBytes(length * 2)) if (byte < limit && characters.length < length) characters.push(ALPHABET[byte % ALPHABET.length]);
  }
  return Array.from({ length: RECOVERY_CODES.groups }, (_, group) => characters.slice(group * RECOVERY_CODES.groupLength, (group + 1) * RECOVERY_CODES.groupLength).join('')).join('-');
}

export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODES.count }, randomCode);

/** A code as typed: case, spaces and dashes do not matter. */
export const normalizedRecoveryCode = (text: string): string => text.toLowerCase().replace(/[\s-]/g, '');

/** Whether text could be a recovery code at all (16 characters of the alphabet once normalized). */
export const looksLikeRecoveryCode = (text: string): boolean => new RegExp(`^[${ALPHABET}]{${RECOVERY_CODES.groups * RECOVERY_CODES.groupLength}}$`).test(normalizedRecoveryCode(text));

/** What is stored of a code: the SHA-256 of its normalized form. */
export const recoveryCodeHash = (code: string): string => createHash('sha256').update(normalizedRecoveryCode(code)).digest('base64url');
