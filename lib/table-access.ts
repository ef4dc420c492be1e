import { PolicyStatement, type IGrantable } from 'aws-cdk-lib/aws-iam';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { tableGrantOf, type TableAccess, type TableAction } from '../shared/api/operation';

/**
 * A function's grant on the table, from its declaration (shared/api/: a route's, or a function
 * outside the routes): exactly its actions on the table, and Query on the indexes unless it
 * queries the table only. Never Scan, BatchGetItem or DescribeTable, which no function calls,
 * and never the stream, which only a stream mapping reads (its own grant).
 */
export function grantTable(grantee: IGrantable, table: ITable, grant: { actions: TableAction[]; indexes: boolean }): void {
  if (grant.actions.length === 0) return;
  grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: grant.actions.map((action) => `dynamodb:${action}`), resources: [table.tableArn] }));
  if (grant.indexes) grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${table.tableArn}/index/*`] }));
}

/** A function outside the routes: its declared access (shared/api/background.ts). */
export const grantDeclaredTable = (grantee: IGrantable, table: ITable, access: TableAccess) => grantTable(grantee, table, tableGrantOf(access));
