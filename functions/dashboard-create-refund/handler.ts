import { dashboardFormPorts } from '../../shared/services/dashboard';
import { refundCreationPorts } from '../../shared/services/refunds';
import { dashboardCreateRefund } from '../../shared/api/pages';
import { REFUND_CURRENCY } from '../../shared/domain/refunds';
import { decimalAmount, defined, optionalText } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { paymentPagePath, refundPagePath } from '../../shared/dashboard/tables';
import { createRefund } from '../../shared/use-cases/refunds';

const ports = dashboardFormPorts();
const creation = refundCreationPorts();

/**
 * POST /dashboard/payments/{id}/refunds: `POST /v1/payments/{id}/refunds` from the payment's
 * page, once confirmed; an empty amount refunds the whole refundable rest. 303 to the new
 * refund's page, or back to the payment's page with the refusal.
 */
export const handler = dashboardForm(ports, dashboardCreateRefund, {
  body: (fields) => {
    const value = decimalAmount(fields['amount.value']);
    return defined({ amount: value === undefined ? undefined : { value, currency: REFUND_CURRENCY }, description: optionalText(fields.description) });
  },
  submit: async ({ principal, urls, path, body }) => refundPagePath(urls, (await createRefund(creation, principal, path.id, body, urls)).id),
  home: (path, _fields, urls) => ({ page: paymentPagePath(urls, path.id), form: 'refund' }),
  confirm: () => 'Tick the box to confirm the refund',
});
