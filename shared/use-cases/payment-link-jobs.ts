import type { JobFactory } from '../jobs';
import { expireDueLinks } from './checkout';
import { paymentLinkAdapters } from './deps';

export const expirePaymentLinksJob: JobFactory = (db, tableName) => {
  const deps = paymentLinkAdapters(db, tableName);
  return { name: 'expire-payment-links', run: (now) => expireDueLinks(deps(), now) };
};
