import { z } from 'zod';
import { updatePaymentLinkBody } from '../../shared/domain/payment-links';
import { apiHandler } from '../../shared/http/api';
import { paymentLinkAdapters } from '../../shared/use-cases/deps';
import { updatePaymentLink } from '../../shared/use-cases/payment-links';

const deps = paymentLinkAdapters();

/** POST /v1/payment_links/{id} (partial update) */
export const handler = apiHandler(
  { scope: 'payment_link:update', path: z.object({ id: z.string() }), body: updatePaymentLinkBody },
  async ({ principal, path, body, urls }) => ({ status: 200, body: await updatePaymentLink(deps(urls), principal, path.id, body) }),
);
