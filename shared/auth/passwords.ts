import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { BusinessRuleError } from '../errors';
import { LIMITS } from '../limits';

/**
 * People's passwords (product-decisions §16): NFKC-normalized, 12 to 128 characters, not the
 * email; stored as a memory-hard scrypt hash in the PHC string format
 * (`$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, base64 without padding), so the parameters travel
 * with each hash and can be raised later. OWASP's Password Storage Cheat Sheet: N = 2^17,
 * r = 8, p = 1; 128 × N × r = 128 MiB per hash, which is why `maxmem` is set (Node's default
 * stops at 32 MiB) and why the functions that hash declare their memory (docs/decisions.md).
 */
const COST_LOG2 = 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/**
 * A hash of a password nobody has, at the same parameters: an unknown email's sign-in verifies
 * against it, so it costs what a known email's does and answers the same (no enumeration by
 * time, OWASP ASVS 5.0 V6.3.8).
 */
const UNKNOWN_USER_HASH = '$scrypt$ln=17,r=8,p=1$CaoxsPIgYCfNO+SDjAy+5g$dkAR7YX3OB4MuCdFz29enJrHj02rLNHx+lsNve3V+Ik';

const unpadded = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

function derive(password: string, salt: Buffer, costLog2: number, blockSize: number, parallelism: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      length,
      { N: 2 ** costLog2, r: blockSize, p: parallelism, maxmem: 128 * 2 ** costLog2 * blockSize * parallelism + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** The stored form of a password (NFKC-normalized first, as every check normalizes it). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, COST_LOG2, BLOCK_SIZE, PARALLELISM, HASH_BYTES);
  return `$scrypt$ln=${COST_LOG2},r=${BLOCK_SIZE},p=${PARALLELISM}$${unpadded(salt)}$${unpadded(hash)}`;
}

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. Without a
 * stored hash (an unknown email, an invited user who has not set one yet, a malformed one) it hashes anyway, against a
 * hash no password matches, and answers false.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const own = stored === undefined ? null : PHC.exec(stored);
  const [, costLog2, blockSize, parallelism, salt, hash] = own ?? PHC.exec(UNKNOWN_USER_HASH)!;
  const expected = Buffer.from(hash, 'base64');
  const given = await derive(password, Buffer.from(salt, 'base64'), Number(costLog2), Number(blockSize), Number(parallelism), expected.length);
  return own !== null && timingSafeEqual(given, expected);
}

/** Characters as people count them: code points, after NFKC. */
const characters = (value: string) => [...value.normalize('NFKC')].length;

/**
 * A new password's rules (§16, OWASP ASVS 5.0 V6.2.1, V6.2.5, V6.2.9): 12 to 128 characters
 * after NFKC, anything else allowed, and not the person's email (compared as emails are, case
 * aside). A refusal is a 422 beside `field`.
 */
export function checkNewPassword(password: string, email: string, field = 'password'): void {
  const length = characters(password);
  const { minLength, maxLength } = LIMITS.password;
  if (length < minLength) throw new BusinessRuleError(`A password needs at least ${minLength} characters`, field);
  if (length > maxLength) throw new BusinessRuleError(`A password has at most ${maxLength} characters`, field);
  if (password.normalize('NFKC').trim().toLowerCase() === email.trim().toLowerCase()) throw new BusinessRuleError('A password cannot be your email address', field);
}
