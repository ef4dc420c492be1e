import * as z from '../zod';
import type { Mode, Scope } from '../auth/principal';
import { targetOf, type AuditAction, type AuditTargetSource } from '../domain/audit';
import { ANY_MEMBER, type Permission } from '../domain/team-roles';

/**
 * The declaration every route is made of. The route table (shared/api/index.ts), the CDK stack,
 * the local server, `apiHandler` and the OpenAPI builder all read these objects; nothing else
 * repeats a route's method, path, scope or schemas.
 */

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503;
export type Tag = 'Payment links' | 'Payments' | 'Refunds' | 'Chargebacks' | 'Balance' | 'Settlements' | 'Events' | 'Webhook endpoints' | 'Audit events' | 'Reports' | 'Test helpers' | 'Reference';

/**
 * What a writing route records in the audit trail (product-decisions §17), once per request, in
 * the transaction of its change (shared/db/audit-trail.ts): the action, and where its target's id
 * comes from (the action's catalog entry, shared/domain/audit.ts, says what kind it is): the
 * path's `{id}`, the object the change creates, the person acting, a body field, or none.
 */
export interface AuditDeclaration {
  action: AuditAction;
  target: AuditTargetSource;
  /** The record rides only a transaction that puts an item of this entity (a sign-in's session, not its pending second step). */
  carriedBy?: string;
  /** A refusal (401, 403, 422) of the person the request identified is recorded under this action, on its own (a failed sign-in). */
  refusedAs?: AuditAction;
}

/**
 * Every route that writes says what it records, or why it records nothing (`none`: a customer's
 * checkout, a session's own preference): a writing route without it fails where it is declared.
 */
export type Audit = AuditDeclaration | { none: string };

export const isAudited = (audit: Audit | undefined): audit is AuditDeclaration => audit !== undefined && 'action' in audit;

/** A declaration whose target source does not fit its action's catalog entry is a programming error, found where it is declared. */
function checkAudit(route: string, audit: Audit | undefined, writes: boolean): void {
  if (!audit) {
    if (writes) throw new Error(`${route} writes and declares no audit: give the action it records, or none with the reason`);
    return;
  }
  if (!isAudited(audit)) return;
  const target = targetOf(audit.action);
  const fits = audit.target === 'none' ? target === null : audit.target === 'actor' ? target === 'user' : target !== null;
  if (!fits) throw new Error(`${route} records ${audit.action}, whose target is ${target ?? 'none'}, from '${audit.target}'`);
}

/**
 * The timeout of a route's function: the stack's default (lib/api-function.ts), which every
 * route keeps. Source mode times its in-process invocations out at it too (bin/local/invocation.ts).
 */
export const ROUTE_TIMEOUT_SECONDS = 10;

/**
 * A DynamoDB action on the table (for a Query, on its indexes too). A transaction's parts are
 * authorized as their own actions (PutItem, UpdateItem, DeleteItem, ConditionCheckItem).
 */
export type TableAction = 'GetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'ConditionCheckItem' | 'DeleteItem' | 'BatchWriteItem';

/** What each level of table access may do. No function scans the table: no level may. */
export const TABLE_ACTIONS = {
  none: [],
  read: ['GetItem', 'Query'],
  write: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
} as const satisfies Record<string, readonly TableAction[]>;

type TableLevel = keyof typeof TABLE_ACTIONS;

/**
 * Table access of a function, which is its IAM grant (lib/table-access.ts): a level, or a level
 * with the actions beyond it that the function takes (`also`: a deletion, a batch import), and
 * `indexes: false` for a function that queries the table only, never an index.
 */
export type TableAccess = TableLevel | { level: TableLevel; also?: readonly ('DeleteItem' | 'BatchWriteItem')[]; indexes?: false };

/**
 * Access of the route's function to the evidence documents' bucket (lib/documents.ts): `upload`
 * signs uploads (s3:PutObject under the documents' prefix), `read` checks and reads them
 * (s3:GetObject, s3:GetObjectVersion there, and s3:ListBucket so that a missing object is a 404),
 * `origin` only knows the bucket's name, to name the origin uploads go to in a page's
 * Content-Security-Policy (the chargeback page's), and may do nothing with it.
 */
export type DocumentAccess = 'upload' | 'read' | 'origin';

/**
 * Access of a function to the report files, under their prefix of the documents' bucket
 * (lib/documents.ts): `read` presigns their downloads (s3:GetObject there, which S3 checks
 * against the signer), `write` uploads them (s3:PutObject, whose grant covers a multipart
 * upload's parts, and s3:AbortMultipartUpload).
 */
export type ReportFileAccess = 'read' | 'write';

/** What a function does with secrets sealed under the stage's key (lib/secrets-key.ts): `seal` new ones (kms:Encrypt), `open` stored ones (kms:Decrypt). */
export type SealedSecretsAccess = 'seal' | 'open';

/** Every key needs a scope unless the operation says, in these words, that any key will do. */
export const ANY_KEY = 'any key' as const;

/**
 * Who may call: a key with `scope` (of `mode` only, when set: a key of the other mode gets 404,
 * as if the route did not exist), or nobody in particular (`public`). There is no default.
 */
export type Auth = { scope: Scope | typeof ANY_KEY; mode?: Mode } | 'public';

interface RouteBase {
  method: Exclude<Method, 'HEAD'>;
  path: string;
  /** The folder under functions/ holding the route's handler.ts. */
  handler: string;
  table: TableAccess;
  /** Evidence documents' bucket; none when absent. */
  documents?: DocumentAccess;
  /** Report files (the documents' bucket, their prefix only); none when absent. */
  reportFiles?: ReportFileAccess;
  /** Project files the function reads at run time, copied into its bundle at the same path. */
  files?: string[];
  /** The function talks to the acquirer: it alone is given the acquirer's secret (ADYEN_SECRET_ARN) and may read it. */
  acquirer?: boolean;
  /** The function writes to people (invitations, resets): it alone is given the sender address (EMAIL_SENDER) and ses:SendEmail on its identity. */
  email?: boolean;
  /** The function seals or opens secrets (two-factor secrets, webhook signing secrets): it alone is given the key's ARN (SECRETS_KEY_ARN) and those uses of it. */
  sealedSecrets?: readonly SealedSecretsAccess[];
  /**
   * The function's memory, in MB, when it needs more than the stack's default (lib/api-function.ts):
   * the functions that hash a password (PASSWORD_HASHING_MEMORY_MB) or draw a dispute's PDFs
   * (EVIDENCE_PDF_MEMORY_MB).
   */
  memoryMb?: number;
  /**
   * The function finds or writes payments by their customer's email: it alone is given the key
   * of the customer emails' index (CUSTOMER_EMAIL_KEY_ARN, lib/customer-email-key.ts) and may read it.
   */
  customerEmails?: boolean;
  /**
   * A money path: in a stage with canaries its callers invoke an alias that CodeDeploy shifts to
   * a new version gradually, rolled back on its alarm (lib/canary.ts).
   */
  canary?: boolean;
  /** What it records in the audit trail; required of every route that writes (POST, DELETE). */
  audit?: Audit;
}

/**
 * The memory of a function that checks or sets a person's password: Lambda gives a function one
 * whole vCPU at 1,769 MB, and scrypt at OWASP's parameters (128 MiB, single-threaded) runs about
 * twice as fast there as at the default 1,024 MB (docs/decisions.md).
 */
export const PASSWORD_HASHING_MEMORY_MB = 1769;

/**
 * The memory of a function that draws a live dispute's texts and PNGs as PDFs (docs/decisions.md
 * 84): one decoded image may take 134 MB, with its copies in the PDF beside it, more than the
 * default 512 MB leaves room for (bench:cost chose that default for handlers that only wait for
 * DynamoDB, and does not run these).
 */
export const EVIDENCE_PDF_MEMORY_MB = 1024;

/** An HTML page or asset (checkout, dashboard, docs): outside the API document. */
export interface PageRoute extends RouteBase {
  kind: 'page';
  auth: 'public' | 'dashboard session';
  /**
   * Behind a dashboard session (and there required): what the person's team role must allow
   * (shared/domain/team-roles.ts), else the 403 page. A form that performs a `/v1` operation
   * needs that operation's scope.
   */
  permission?: Permission | typeof ANY_MEMBER;
  /**
   * A dashboard form that performs a `/v1` operation: the form is read into its path and body
   * schemas, and its use case runs.
   */
  acts?: ApiOperation;
}

export interface OperationDocs {
  tag: Tag;
  summary: string;
  description: string;
  success: { status: 200 | 201 | 202; description: string; schema: z.ZodMiniType };
  /** Operation-specific wording (or schema) of an error status, beyond the generic ones. */
  errors?: Partial<Record<ErrorStatus, { description: string; schema?: z.ZodMiniType }>>;
}

/** A `/v1` JSON operation: its access, its inputs and its documentation, all required but the body. */
export interface ApiOperation<
  P extends z.ZodMiniObject = z.ZodMiniObject,
  Q extends z.ZodMiniObject = z.ZodMiniObject,
  B extends z.ZodMiniType = z.ZodMiniType,
> extends RouteBase,
    OperationDocs {
  kind: 'api';
  auth: Auth;
  /** Path parameters, described; their names are the path's `{name}` segments. */
  params: P;
  /** The query string: a list's parameters, or `NoQuery` for an operation that reads none. */
  query: Q;
  body?: B;
}

/**
 * Where another system posts its notifications (the acquirer's): public to API Gateway, the
 * function checks the sender (credentials and signatures); outside the API document.
 */
export interface ReceiverRoute extends RouteBase {
  kind: 'receiver';
  method: 'POST';
  auth: 'sender signature';
}

export type Route = ApiOperation | PageRoute | ReceiverRoute;

export const LIST_422 =
  'A list parameter breaks a rule: `limit` outside 1..100, a malformed cursor or one naming no item of this list, both cursors at once, ' +
  'a creation range whose `created[lt]` is not after its `created[gte]` (where the list takes one).';

/** No query parameters are read; unknown ones are ignored, as on every retrieve. */
export const NoQuery = /* @__PURE__ */ (() => z.object({}))();
/** No path parameters. */
export const NoParams = /* @__PURE__ */ (() => z.object({}))();

/** A path parameter, described for the reference. */
export const pathParam = <N extends string>(name: N, description: string, example: string) =>
  z.object({ [name]: z.withMeta(z.string(), { description, example }) } as Record<N, z.ZodMiniString>);

type Declared<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType> = Omit<ApiOperation<P, Q, B>, 'kind'>;

/*
 * Declarations are data: each `define…` call (and each list of pages) is marked `/* @__PURE__ *\/`
 * where it is made, so a function's bundle keeps the declarations of its own operations and
 * drops its area's others (with their schemas and descriptions), while the route table, the
 * stack and the OpenAPI document, which read them all, keep them all. (`defineForm` also checks
 * its operation names a scope: that check runs wherever the form is kept, `cdk synth` included.)
 */
export function defineOperation<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType = z.ZodMiniUndefined>(
  operation: Declared<P, Q, B>,
): ApiOperation<P, Q, B> {
  checkAudit(`${operation.method} ${operation.path}`, operation.audit, operation.method !== 'GET');
  return { kind: 'api', ...operation };
}

type NoBody = z.ZodMiniUndefined;

/** A list (product-decisions §2): GET, read access, and the list rules' 422. */
export const defineList = <P extends z.ZodMiniObject, Q extends z.ZodMiniObject>(list: Omit<Declared<P, Q, NoBody>, 'method' | 'table'>) =>
  defineOperation<P, Q, NoBody>({ method: 'GET', table: 'read', ...list, errors: { 422: { description: LIST_422 }, ...list.errors } });

/** A retrieve: GET, read access, no query parameters. */
export const defineRetrieve = <P extends z.ZodMiniObject>(retrieve: Omit<Declared<P, typeof NoQuery, NoBody>, 'method' | 'table' | 'query'>) =>
  defineOperation<P, typeof NoQuery, NoBody>({ method: 'GET', table: 'read', query: NoQuery, ...retrieve });

/** A page or asset route; one behind a dashboard session names the permission it needs. */
export function definePage(page: Omit<PageRoute, 'kind'>): PageRoute {
  if (page.auth === 'dashboard session' && !page.permission) throw new Error(`${page.method} ${page.path} is behind a dashboard session and names no permission`);
  checkAudit(`${page.method} ${page.path}`, page.audit, page.method !== 'GET');
  return { kind: 'page', ...page };
}

export const defineReceiver = (receiver: Omit<ReceiverRoute, 'kind' | 'method' | 'auth'>): ReceiverRoute => ({ kind: 'receiver', method: 'POST', auth: 'sender signature', ...receiver });

/**
 * A dashboard form (POST, behind the session): the permission it needs, and the schemas its path
 * and fields are read with (a `/v1` operation's, for a form that performs one).
 */
export type FormRoute<P extends z.ZodMiniObject = z.ZodMiniObject, B extends z.ZodMiniType = z.ZodMiniType> = PageRoute & {
  permission: Permission | typeof ANY_MEMBER;
  params: P;
  body?: B;
};

/**
 * A dashboard form performing a `/v1` operation: its table, bucket, acquirer and customer
 * email index access, the files its function reads, its schemas and its permission (the
 * operation's scope, which it must name) are that operation's.
 */
export function defineForm<P extends z.ZodMiniObject, Q extends z.ZodMiniObject, B extends z.ZodMiniType>(
  form: { path: string; handler: string },
  acts: ApiOperation<P, Q, B>,
): FormRoute<P, B> & { acts: ApiOperation<P, z.ZodMiniObject, B>; permission: Scope } {
  const { auth } = acts;
  if (auth === 'public' || auth.scope === ANY_KEY) throw new Error(`${form.path} acts as ${acts.path}, which needs no scope`);
  return {
    kind: 'page',
    method: 'POST',
    table: acts.table,
    ...(acts.documents ? { documents: acts.documents } : {}),
    ...(acts.reportFiles ? { reportFiles: acts.reportFiles } : {}),
    ...(acts.acquirer ? { acquirer: acts.acquirer } : {}),
    ...(acts.email ? { email: acts.email } : {}),
    // A form's repeat gets its 303 and its notice (sealed for the session), never the operation's kept answer, which is what the operation opens.
    ...(acts.sealedSecrets?.includes('seal') ? { sealedSecrets: ['seal'] as const } : {}),
    ...(acts.files ? { files: acts.files } : {}),
    ...(acts.memoryMb ? { memoryMb: acts.memoryMb } : {}),
    ...(acts.customerEmails ? { customerEmails: acts.customerEmails } : {}),
    // The operation's own record: a form and the API record the same action.
    ...(acts.audit ? { audit: acts.audit } : {}),
    auth: 'dashboard session',
    ...form,
    acts: acts as ApiOperation<P, z.ZodMiniObject, B>,
    permission: auth.scope,
    params: acts.params,
    ...(acts.body ? { body: acts.body } : {}),
  };
}

/** A dashboard form of the dashboard's own (the team, the mode, the person's security): its permission, table access, schemas and audit record. */
export function defineDashboardForm<P extends z.ZodMiniObject, B extends z.ZodMiniType>(form: {
  path: string;
  handler: string;
  table: TableAccess;
  permission: Permission | typeof ANY_MEMBER;
  params: P;
  body?: B;
  memoryMb?: number;
  email?: boolean;
  sealedSecrets?: readonly SealedSecretsAccess[];
  audit: Audit;
}): FormRoute<P, B> {
  checkAudit(`POST ${form.path}`, form.audit, true);
  return { kind: 'page', method: 'POST', auth: 'dashboard session', ...form };
}

export const pathParamNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);

/** A route's path as API Gateway matches it: each `{name}` is one segment, captured in order. */
export const pathPattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '([^/]+)')}$`);

export type Method = 'GET' | 'HEAD' | 'POST' | 'DELETE';

/**
 * The methods a route answers: its own, and HEAD for a page read with GET (a browser, a link
 * checker or a preview asks for the headers only). HTTP API does not answer HEAD on a GET route
 * by itself: the stack routes it too.
 */
export const methodsOf = (route: Route): Method[] => (route.kind === 'page' && route.method === 'GET' ? ['GET', 'HEAD'] : [route.method]);

/**
 * Whether a route's function claims an idempotency record and frees it after a failure worth
 * retrying (shared/http/idempotency.ts): a POST of the API behind a key (`apiHandler`), and a
 * dashboard form (its one-time nonce is the key).
 */
const runsIdempotently = (route: Route) => (route.kind === 'api' && route.method === 'POST' && route.auth !== 'public') || (route.kind === 'page' && route.acts !== undefined);

/** Everything a function's table access lets it do: the actions, and whether its Queries may read the indexes. */
export function tableGrantOf(access: TableAccess, extra: readonly TableAction[] = []): { actions: TableAction[]; indexes: boolean } {
  const { level, also = [], indexes = true } = typeof access === 'string' ? { level: access } : access;
  const actions = [...new Set<TableAction>([...TABLE_ACTIONS[level], ...also, ...extra])];
  return { actions, indexes: indexes && actions.includes('Query') };
}

/** A route's table grant: its declared access, and what its kind does besides (the idempotency record's release: DeleteItem). */
export const routeTableGrant = (route: Route) => tableGrantOf(route.table, runsIdempotently(route) ? ['DeleteItem'] : []);

/** A page behind a session that only reads: it records the session's last request (its idle end), the one write granted it, on session items alone (lib/route-area.ts). */
export const touchesSessionOnly = (route: Route) => route.kind === 'page' && route.auth === 'dashboard session' && route.table === 'read';

/** An operation behind an API key that does not update the table: it notes the key's last use (once a minute), the one write granted it, on key items alone (lib/route-area.ts). */
export const notesKeyUseOnly = (route: Route) => route.kind === 'api' && route.auth !== 'public' && !routeTableGrant(route).actions.includes('UpdateItem');
