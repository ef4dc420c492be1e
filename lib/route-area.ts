import { NestedStack } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';
import { methodsOf, notesKeyUseOnly, routeTableGrant, touchesSessionOnly, type Route } from '../shared/api/operation';
import { apiKeyEntity, dashboardSessionEntity } from '../shared/db/entities';
import { literalPrefix } from '../shared/db/entity';
import type { Acquirer } from './acquirer';
import { ServiceFunction } from './api-function';
import type { CustomerEmailKey } from './customer-email-key';
import type { EvidenceDocuments } from './documents';
import type { Email } from './email';
import type { SecretsKey } from './secrets-key';
import { grantTable } from './table-access';
import { invokedThroughCanary } from './canary';

/**
 * The area a route belongs to, which names the nested stack its function is deployed in: a
 * `/v1` operation's tag (the sections of the API reference: Payment links, Refunds, Test
 * helpers, …), any other route's family, the first segment of its path (checkout, dashboard,
 * docs). A new route lands in its area's stack; a new tag or family makes a stack of its own.
 */
export function areaOf(route: Route): string {
  const area = route.kind === 'api' ? route.tag : route.path.split('/')[1];
  return area.replace(/(?:^|[\s_-]+)(\w)/g, (_match, first: string) => first.toUpperCase());
}

/** The routes of each area, in declaration order. */
export function routesByArea(routes: Route[]): Map<string, Route[]> {
  const areas = new Map<string, Route[]>();
  for (const route of routes) areas.set(areaOf(route), [...(areas.get(areaOf(route)) ?? []), route]);
  return areas;
}

/** How a route's caller is authenticated: API Gateway leaves it to the function (AwsSolutions-APIG4). */
function authenticationOf(route: Route): string {
  if (route.kind === 'api') return route.auth === 'public' ? 'it is public by design' : 'its function authenticates the bearer API key (hashed key lookup, scopes, modes)';
  return route.auth === 'public' ? 'the page is public by design' : "its function checks the dashboard session item and its person's standing and role";
}

export interface RouteAreaProps {
  routes: Route[];
  api: HttpApi;
  table: Table;
  /** The evidence documents' bucket, granted to the routes that declare `documents`. */
  documents: EvidenceDocuments;
  /** The acquirer, connected to the routes that declare `acquirer` (its secret). */
  acquirer: Acquirer;
  /** The stage's sender, connected to the routes that declare `email`. */
  email: Email;
  /** The stage's secrets key, connected to the routes that declare `sealedSecrets`. */
  secretsKey: SecretsKey;
  /** The customer emails' index key, connected to the routes that declare `customerEmails`. */
  customerEmailKey: CustomerEmailKey;
  /** The one log group of every route's function (decisions 49). */
  logGroup: ILogGroup;
  environment: Record<string, string>;
}

/**
 * One area's routes in a nested stack of their own (docs/decisions.md), so that the stack
 * grows by areas and no template nears CloudFormation's 500 resources: per route its function
 * (role, policy; the parent's log group), its table, bucket, acquirer, email and key grants, its integration, one invoke permission whatever
 * its methods, and a route per method on the parent's HTTP API.
 */
export class RouteArea extends NestedStack {
  constructor(scope: Construct, id: string, props: RouteAreaProps) {
    super(scope, id, { description: `Routes of the ${id.replace(/Routes$/, "")} area: their functions, grants, integrations and permissions` });
    for (const route of props.routes) {
      const documentsBucket: Record<string, string> = route.documents || route.reportFiles ? { DOCUMENTS_BUCKET: props.documents.bucket.bucketName } : {};
      const fn = new ServiceFunction(this, `Route-${route.handler}`, {
        handler: route.handler,
        environment: { ...props.environment, ...documentsBucket },
        files: route.files,
        logGroup: props.logGroup,
        ...(route.memoryMb ? { memorySize: route.memoryMb } : {}),
      }).function;
      grantTable(fn, props.table, routeTableGrant(route));
      // A page behind a session records the session's last request (its idle end): that item's one write, nothing else.
      if (touchesSessionOnly(route)) {
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [props.table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${literalPrefix(dashboardSessionEntity.definition.key.pk)}*`] } },
          }),
        );
      }
      // An operation that takes an API key notes the key's last use (once a minute): that item's one write.
      if (notesKeyUseOnly(route)) {
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [props.table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${literalPrefix(apiKeyEntity.definition.key.pk)}*`] } },
          }),
        );
      }
      if (route.documents && route.documents !== 'origin') props.documents.grant(fn, route.documents);
      if (route.reportFiles) props.documents.grantReportFiles(fn, route.reportFiles);
      if (route.acquirer) props.acquirer.connect(fn);
      if (route.email) props.email.connect(fn);
      if (route.sealedSecrets) props.secretsKey.connect(fn, route.sealedSecrets);
      if (route.customerEmails) props.customerEmailKey.connect(fn);
      // One invoke permission per function, whatever its methods: a permission per route would add a resource for each HEAD route.
      const integration = new HttpLambdaIntegration(`Integration-${route.handler}`, invokedThroughCanary(this, fn, route.canary), { scopePermissionToRoute: false });
      for (const method of methodsOf(route)) {
        const httpRoute = new HttpRoute(this, `${method}${route.path}`, {
          httpApi: props.api,
          routeKey: HttpRouteKey.with(route.path, HttpMethod[method]),
          integration,
        });
        // APIG4 has no finding ids, so it cannot take appliesTo: it is scoped to this route.
        NagSuppressions.addResourceSuppressions(httpRoute, [
          { id: 'AwsSolutions-APIG4', reason: `Route ${method} ${route.path}: no API Gateway authorizer because ${authenticationOf(route)}.` },
        ]);
      }
    }
  }
}
