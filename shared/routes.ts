/**
 * Every HTTP route of the service, read by both the CDK stack (one function per route) and
 * the local stack (the same handlers behind a Node HTTP server). `handler` names the folder
 * under functions/; `access` decides the function's table grant.
 */
export interface RouteDefinition {
  method: 'GET' | 'POST';
  path: string;
  handler: string;
  access: 'read' | 'write';
}

export const routes: RouteDefinition[] = [
  { method: 'GET', path: '/v1/payments/{id}', handler: 'get-payment', access: 'read' },
  { method: 'POST', path: '/v1/test_helpers/jobs/{name}', handler: 'test-helper-run-job', access: 'write' },
  { method: 'GET', path: '/v1/settlements', handler: 'list-settlements', access: 'read' },
  { method: 'GET', path: '/v1/settlements/{code}', handler: 'get-settlement', access: 'read' },
  { method: 'GET', path: '/v1/settlements/{code}/records', handler: 'list-settlement-records', access: 'read' },
];
