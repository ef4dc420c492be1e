import { z } from 'zod';
import { loadConfig } from '../../shared/config';
import { documentClient } from '../../shared/db/client';
import { createPaymentRepository } from '../../shared/db/payment-repository';
import { PAYMENT_STATUSES, paymentResource } from '../../shared/domain/payments';
import { isId } from '../../shared/ids';
import { apiHandler } from '../../shared/http/api';
import { listQueryFields, pageRequest } from '../../shared/pagination';

const payments = createPaymentRepository(documentClient(), loadConfig().tableName);

export const listPaymentsQuery = z
  .strictObject({ ...listQueryFields, status: z.enum(PAYMENT_STATUSES).optional() })
  .meta({ id: 'ListPaymentsQuery' });

/** GET /v1/payments */
export const handler = apiHandler({ scope: 'payment:read', query: listPaymentsQuery }, async ({ principal, query, urls }) => {
  const page = pageRequest(query, (value) => isId('payment', value));
  const result = await payments.list(principal, page, query.status);
  return { status: 200, body: { has_more: result.hasMore, data: result.items.map((payment) => paymentResource(payment, urls)) } };
});
