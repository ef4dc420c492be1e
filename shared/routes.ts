import { SWAGGER_UI_BUNDLE_FILES } from './docs/swagger-ui';

/**
 * Every HTTP route of the service, read by both the CDK stack (one function per route) and
 * the local stack (the same handlers behind a Node HTTP server). `handler` names the folder
 * under functions/; `access` decides the function's table grant (`none`: no table access).
 * `files` are project files the function reads at run time, copied into its bundle.
 */
export interface RouteDefinition {
  method: 'GET' | 'POST';
  path: string;
  handler: string;
  access: 'read' | 'write' | 'none';
  files?: string[];
}

export const routes: RouteDefinition[] = [
  { method: 'POST', path: '/v1/payment_links', handler: 'create-payment-link', access: 'write' },
  { method: 'GET', path: '/v1/payment_links', handler: 'list-payment-links', access: 'read' },
  { method: 'GET', path: '/v1/payment_links/{id}', handler: 'get-payment-link', access: 'read' },
  { method: 'POST', path: '/v1/payment_links/{id}', handler: 'update-payment-link', access: 'write' },
  { method: 'GET', path: '/v1/payment_links/{id}/payments', handler: 'list-payment-link-payments', access: 'read' },
  { method: 'GET', path: '/v1/payments', handler: 'list-payments', access: 'read' },
  { method: 'GET', path: '/v1/payments/{id}', handler: 'get-payment', access: 'read' },
  { method: 'GET', path: '/checkout/{id}', handler: 'checkout-page', access: 'write' },
  { method: 'POST', path: '/checkout/{id}', handler: 'checkout-submit', access: 'write' },
  { method: 'GET', path: '/checkout/{id}/thank-you', handler: 'checkout-thank-you', access: 'read' },
  { method: 'POST', path: '/v1/test_helpers/payment_links/{id}/checkout', handler: 'test-helper-checkout', access: 'write' },
  { method: 'POST', path: '/v1/test_helpers/jobs/{name}', handler: 'test-helper-run-job', access: 'write' },
  { method: 'GET', path: '/v1/chargebacks/{id}', handler: 'get-chargeback', access: 'read' },
  { method: 'GET', path: '/v1/chargebacks', handler: 'list-chargebacks', access: 'read' },
  { method: 'GET', path: '/v1/payments/{id}/chargebacks', handler: 'list-payment-chargebacks', access: 'read' },
  { method: 'POST', path: '/v1/test_helpers/payments/{id}/chargebacks', handler: 'test-helper-create-chargeback', access: 'write' },
  { method: 'POST', path: '/v1/test_helpers/chargebacks/{id}/transitions', handler: 'test-helper-transition-chargeback', access: 'write' },
  { method: 'POST', path: '/v1/payments/{id}/refunds', handler: 'create-refund', access: 'write' },
  { method: 'GET', path: '/v1/refunds/{id}', handler: 'get-refund', access: 'read' },
  { method: 'GET', path: '/v1/refunds', handler: 'list-refunds', access: 'read' },
  { method: 'POST', path: '/v1/test_helpers/refunds/{id}/transitions', handler: 'test-helper-refund-transition', access: 'write' },
  { method: 'POST', path: '/v1/test_helpers/balance_adjustments', handler: 'test-helper-balance-adjustment', access: 'write' },
  { method: 'GET', path: '/v1/settlements', handler: 'list-settlements', access: 'read' },
  { method: 'GET', path: '/v1/settlements/{code}', handler: 'get-settlement', access: 'read' },
  { method: 'GET', path: '/v1/settlements/{code}/records', handler: 'list-settlement-records', access: 'read' },
  { method: 'GET', path: '/dashboard', handler: 'dashboard', access: 'read' },
  { method: 'POST', path: '/dashboard/session', handler: 'dashboard-sign-in', access: 'write' },
  { method: 'POST', path: '/dashboard/sign-out', handler: 'dashboard-sign-out', access: 'write' },
  { method: 'GET', path: '/dashboard/refunds/{id}', handler: 'dashboard-refund', access: 'read' },
  { method: 'GET', path: '/v1/events', handler: 'list-events', access: 'read' },
  { method: 'GET', path: '/v1/events/{id}', handler: 'get-event', access: 'read' },
  { method: 'GET', path: '/v1/events/{id}/deliveries', handler: 'list-event-deliveries', access: 'read' },
  { method: 'POST', path: '/v1/events/{id}/resend', handler: 'resend-event', access: 'write' },
  { method: 'GET', path: '/v1/openapi.json', handler: 'get-openapi', access: 'none' },
  { method: 'GET', path: '/docs', handler: 'docs-page', access: 'none' },
  { method: 'GET', path: '/docs/errors', handler: 'docs-errors', access: 'none' },
  { method: 'GET', path: '/docs/assets/{file}', handler: 'docs-asset', access: 'none', files: SWAGGER_UI_BUNDLE_FILES },
];
