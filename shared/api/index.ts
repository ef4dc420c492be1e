import { acquirerNotifications } from './acquirer';
import { auditEventOperations } from './audit-events';
import { balanceOperations } from './balance';
import { chargebackOperations } from './chargebacks';
import { eventOperations } from './events';
import { testHelperRunJob } from './jobs';
import type { ApiOperation, Route } from './operation';
import { checkoutPages, dashboardPages } from './pages';
import { paymentLinkOperations } from './payment-links';
import { paymentOperations } from './payments';
import { refundOperations } from './refunds';
import { reportOperations } from './reports';
import { referencePages, getOpenApi } from './reference';
import { settlementOperations } from './settlements';
import { webhookEndpointOperations } from './webhook-endpoints';

/** Every `/v1` operation, in the order the reference lists them. */
export const apiOperations: ApiOperation[] = [
  ...paymentLinkOperations,
  ...paymentOperations,
  testHelperRunJob,
  ...chargebackOperations,
  ...refundOperations,
  ...balanceOperations,
  ...settlementOperations,
  ...eventOperations,
  ...webhookEndpointOperations,
  ...auditEventOperations,
  ...reportOperations,
  getOpenApi,
] as ApiOperation[];

/**
 * Every HTTP route of the service, one function each: the CDK stack deploys them and the local
 * stack serves them from this list, each with the methods `methodsOf` gives it.
 */
export const routes: Route[] = [...apiOperations, ...checkoutPages, ...dashboardPages, ...referencePages, acquirerNotifications];

/**
 * The function of API Gateway's `$default` route, which takes every request no route takes: a
 * wrong method on a route's path (405 with `Allow`) or an unknown path (404).
 */
export const unmatchedRouteHandler = 'unmatched-route';
