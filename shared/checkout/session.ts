import { randomBytes } from 'node:crypto';

/** The `client_key` cookie that identifies one customer across checkout attempts. */
export const CLIENT_KEY_COOKIE = 'client_key';

export function newClientKey(): string {
  return randomBytes(18).toString('base64url');
}

export function isClientKey(value: string | undefined): value is string {
  return !!value && /^[A-Za-z0-9_-]{8,64}$/.test(value);
}

export function clientKeyCookie(value: string, secure: boolean): string {
  return `${CLIENT_KEY_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=2592000${secure ? '; Secure' : ''}`;
}
