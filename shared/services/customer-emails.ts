import { loadConfig } from '../config';
import { emailDigest, type CustomerEmailIndex } from '../domain/customer-emails';
import { once, onceAsync } from './wiring';

/**
 * The customer emails' index (shared/domain/customer-emails.ts): the key read once per cold
 * start, on the first digest, by the functions whose operations declare `customerEmails`; the
 * Secrets Manager client is loaded then, so a function that never digests never pays for it.
 */
export const customerEmailIndex = /* @__PURE__ */ once((): CustomerEmailIndex => {
  const key = onceAsync(async () => {
    const { readCustomerEmailKey } = await import('../crypto/customer-email-digest');
    return readCustomerEmailKey(loadConfig().customerEmailKeyArn);
  });
  return { digest: async (email) => emailDigest(await key(), email) };
});
