import type { PublicUrls } from '../config';
import { loadConfig, publicUrls } from '../config';
import { documentClient } from '../db/client';
import { createDirectory } from '../db/directory';
import { createPaymentLinkRepository } from '../db/payment-link-repository';
import { createPaymentRepository } from '../db/payment-repository';
import type { CheckoutDeps } from './checkout';
import { processHeldRefunds } from './refunds';

/**
 * Wires the payment-link and checkout use cases to DynamoDB, once per process. Handlers pass
 * the request's public URLs; jobs use the configured ones.
 */
export function paymentLinkAdapters(db = documentClient(), tableName = loadConfig().tableName) {
  const links = createPaymentLinkRepository(db, tableName);
  const payments = createPaymentRepository(db, tableName);
  const directory = createDirectory(db, tableName);
  return (urls: PublicUrls = publicUrls(loadConfig())): CheckoutDeps => ({
    links,
    payments,
    directory,
    urls,
    now: () => new Date(),
    tableName,
    sessions: { get: links.sessionPayment, putAction: links.sessionPutAction },
    onBalanceCredited: async (ref) => {
      await processHeldRefunds(db, tableName, ref, { urls });
    },
  });
}
