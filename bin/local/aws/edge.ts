import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { KEY } from '../../../shared/db/table';
import { logger } from '../../../shared/observability/logger';
import { AwsError } from './aws-error';
import type { LocalEventBridge } from './eventbridge';
import type { AccessPolicies } from './iam';
import type { LocalQueue } from './sqs';
import type { LocalSecrets } from '../secrets-manager';
import type { LocalSes } from './ses';
import type { LocalKms } from './kms';

/** A function calling AWS: identified by the access key id of its environment's credentials. */
export interface EdgeCaller {
  functionName: string;
  role: string;
  /** Source mode's shared identity: every call allowed (no role to check it against). */
  unchecked?: boolean;
  /** Its role session, as IAM names the principal in a refusal. */
  principalArn: string;
}

export interface AccessDenial {
  functionName: string;
  action: string;
  resource: string;
  reason: string;
}

interface AccessCheck {
  action: string;
  resource: string;
  /** Other names of the resource (a queue's URL) that resource policies may use. */
  keys?: string[];
  /** The request's condition keys (a DynamoDB item's partition key: dynamodb:LeadingKeys). */
  context?: Record<string, string[]>;
}

export interface EdgeOptions {
  dynamodbEndpoint: string;
  callerOf(accessKeyId: string): EdgeCaller | undefined;
  policies: AccessPolicies;
  tableArn(nameOrArn: string): string;
  queueAt(url: string): LocalQueue | undefined;
  eventBridge: LocalEventBridge;
  /**
   * S3's endpoint: `listener`, where S3's REST calls (a function's SDK, a presigned URL a function
   * made) are checked, then forwarded to the S3-compatible store at `storeUrl` (bin/local/s3.ts).
   */
  s3: { listener: Server; storeUrl: string };
  secrets: LocalSecrets;
  /** The local SES (API v2, REST: requests without X-Amz-Target signed for the `ses` service). */
  ses: LocalSes;
  /** The local KMS (JSON 1.1, `TrentService.*`), decided on the key policy first (`decideOnKey`). */
  kms: LocalKms;
  /** The account the stack runs in: the root principal a key policy delegates to IAM by. */
  account: string;
  onDenied(denial: AccessDenial): void;
  /** Counts an SQS request a function made (bin/local/usage.ts). */
  onSqsRequest?(): void;
  /** Counts each call a function makes to AWS, by its operation (`DynamoDB_20120810.GetItem`): bin/local/usage.ts. */
  onCall?(functionName: string, target: string): void;
}

const JSON_1_0 = 'application/x-amz-json-1.0';

/**
 * The partition key an item request names (its `Key`, or a put's `Item`), as IAM's
 * dynamodb:LeadingKeys: a policy may allow a write only to items whose key starts so. Item
 * requests carry it here; a Query or a Scan does not (no statement of the stack conditions one).
 */
function leadingKeys(request: { Key?: Record<string, { S?: string }>; Item?: Record<string, { S?: string }> }): Record<string, string[]> | undefined {
  const partition = (request.Key ?? request.Item)?.[KEY.pk]?.S;
  return partition === undefined ? undefined : { 'dynamodb:LeadingKeys': [partition] };
}

/** The IAM actions and resources of one DynamoDB call: each item of a transaction or batch is checked as its own action. */
function dynamoDbAccess(operation: string, body: Record<string, unknown>, tableArn: (name: string) => string): AccessCheck[] {
  const table = (name: unknown, index?: unknown) => `${tableArn(String(name))}${index ? `/index/${index}` : ''}`;
  const item = (request: Record<string, unknown>) => {
    const context = leadingKeys(request);
    return context ? { context } : {};
  };
  switch (operation) {
    case 'TransactWriteItems':
      return (body.TransactItems as Record<string, { TableName: string }>[]).map((entry) => {
        const [kind, request] = Object.entries(entry)[0];
        const action = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' }[kind] ?? kind;
        return { action: `dynamodb:${action}`, resource: table(request.TableName), ...item(request) };
      });
    case 'TransactGetItems':
      return (body.TransactItems as { Get: { TableName: string } }[]).map((entry) => ({ action: 'dynamodb:GetItem', resource: table(entry.Get.TableName), ...item(entry.Get) }));
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys(body.RequestItems as object).map((name) => ({ action: `dynamodb:${operation}`, resource: table(name) }));
    case 'ListTables':
      return [{ action: 'dynamodb:ListTables', resource: '*' }];
    case 'ExecuteStatement':
    case 'BatchExecuteStatement':
    case 'ExecuteTransaction':
      throw new AwsError('UnknownOperationException', `${operation} (PartiQL) is not imitated locally`);
    default:
      return [{ action: `dynamodb:${operation}`, resource: table(body.TableName, body.IndexName), ...item(body) }];
  }
}

/**
 * The SigV4 credential scope of a request without X-Amz-Target (`AKID/date/region/service/aws4_request`),
 * of its Authorization header or its presigned URL: who signed it, and for which service.
 */
function restCredential(request: IncomingMessage, url: URL): { signer?: string; service?: string } {
  const scope = /Credential=([^,\s]+)/.exec(String(request.headers.authorization ?? ''))?.[1] ?? url.searchParams.get('X-Amz-Credential') ?? '';
  const [signer, , , service] = scope.split('/');
  return { signer: signer || undefined, service };
}

/**
 * The IAM action and resource of a path-style S3 request (`/{bucket}/{key}`): objects are read
 * (HEAD and GET: s3:GetObject, of a version: s3:GetObjectVersion), written and deleted, and
 * uploaded in parts (the start, each part and the completion: s3:PutObject; the abort:
 * s3:AbortMultipartUpload); a bucket is listed. Anything else is not imitated.
 */
function s3Access(method: string, url: URL): AccessCheck & { bucket: string; key: string } {
  const [, bucket = '', ...rest] = url.pathname.split('/');
  const key = rest.join('/');
  const object = `arn:aws:s3:::${bucket}/${decodeURIComponent(key)}`;
  const versioned = url.searchParams.has('versionId');
  const multipart = url.searchParams.has('uploads') || url.searchParams.has('uploadId');
  const actions: Record<string, string | undefined> = key
    ? {
        GET: versioned ? 'GetObjectVersion' : 'GetObject',
        HEAD: versioned ? 'GetObjectVersion' : 'GetObject',
        PUT: 'PutObject',
        POST: multipart ? 'PutObject' : undefined,
        DELETE: multipart ? 'AbortMultipartUpload' : 'DeleteObject',
      }
    : { GET: 'ListBucket' };
  const action = actions[method];
  if (!bucket || !action) throw new AwsError('NotImplemented', `${method} ${url.pathname} is not imitated locally`, 501);
  return { action: `s3:${action}`, resource: key ? object : `arn:aws:s3:::${bucket}`, keys: [bucket], bucket, key };
}

/** SQS's batch calls are authorized as their single-message action. */
const sqsAction = (operation: string) => `sqs:${operation.replace(/Batch$/, '')}`;

/**
 * An HTTP server listening on 127.0.0.1 at `port` (0: a free one) before its handler is attached:
 * the port is held from the moment its URL is handed to the functions' environments, so no other
 * process of the run can take it in between. `busy` is the error a taken port answers with.
 */
export async function reserveListener(port: number, busy?: string): Promise<Server> {
  const listener = createServer();
  await new Promise<void>((done, fail) => {
    const refused = (error: NodeJS.ErrnoException) => fail(busy && error.code === 'EADDRINUSE' ? new Error(busy) : error);
    listener.once('error', refused);
    listener.listen(port, '127.0.0.1', () => {
      listener.off('error', refused);
      done();
    });
  });
  return listener;
}

/** The port a reserved listener holds. */
export const portOf = (listener: Server) => (listener.address() as { port: number }).port;

/** Closes reserved or serving listeners, their open connections first. */
export async function closeListeners(listeners: Server[]): Promise<void> {
  for (const listener of listeners) {
    listener.closeAllConnections();
    await new Promise((done) => listener.close(done));
  }
}

/**
 * The local AWS edge: every SDK call of every function comes here (AWS_ENDPOINT_URL; S3's to
 * S3's own endpoint, AWS_ENDPOINT_URL_S3), is checked against the caller's role as the template
 * deploys it, and is then forwarded to DynamoDB Local or the local S3's store, or served by the
 * local EventBridge, SQS, Secrets Manager, SES and KMS. A refusal answers
 * AccessDeniedException as IAM would and names the missing grant in the log.
 * Its handlers go on `server`, and S3's on `options.s3.listener`, both reserved first
 * (`reserveListener`).
 */
export function startAwsEdge(server: Server, options: EdgeOptions): { close(): Promise<void> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const dynamodb = new URL(options.dynamodbEndpoint);
  const s3 = new URL(options.s3.storeUrl);

  function reply(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    response.writeHead(status, { 'content-type': JSON_1_0, ...headers });
    response.end(JSON.stringify(body));
  }

  function fail(response: ServerResponse, target: string, error: AwsError) {
    const sqs = target.startsWith('AmazonSQS.');
    reply(
      response,
      error.status,
      { __type: `${sqs ? 'com.amazonaws.sqs' : 'com.amazon.coral.service'}#${error.code}`, message: error.message },
      sqs ? { 'x-amzn-query-error': `${error.code};Sender` } : {},
    );
  }

  function authorize(caller: EdgeCaller, checks: AccessCheck[]) {
    if (caller.unchecked) return;
    for (const check of checks) {
      const decision = options.policies.decide({ caller: { role: caller.role }, action: check.action, resource: check.resource, context: check.context }, [check.resource, ...(check.keys ?? [])]);
      if (decision.allowed) continue;
      options.onDenied({ functionName: caller.functionName, action: check.action, resource: check.resource, reason: decision.reason });
      throw new AwsError(
        'AccessDeniedException',
        `User: ${caller.principalArn} is not authorized to perform: ${check.action} on resource: ${check.resource} because ${decision.reason}`,
      );
    }
  }

  function forwardToDynamoDb(request: IncomingMessage, body: Buffer, response: ServerResponse) {
    const upstream = httpRequest(
      { host: dynamodb.hostname, port: dynamodb.port, path: request.url, method: 'POST', headers: { ...request.headers, host: dynamodb.host }, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => fail(response, 'DynamoDB', new AwsError('ServiceUnavailable', `DynamoDB Local: ${error.message}`, 503)));
    upstream.end(body);
  }

  async function serveSqs(operation: string, body: Record<string, unknown>, caller: EdgeCaller): Promise<unknown> {
    const queue = options.queueAt(String(body.QueueUrl ?? body.QueueName ?? ''));
    if (!queue) throw new AwsError('QueueDoesNotExist', 'The specified queue does not exist.');
    authorize(caller, [{ action: sqsAction(operation), resource: queue.settings.arn, keys: [queue.settings.url] }]);
    options.onSqsRequest?.();
    switch (operation) {
      case 'SendMessage':
        return queue.send(String(body.MessageBody ?? ''), body.DelaySeconds as number | undefined, body.MessageGroupId as string | undefined);
      case 'SendMessageBatch': {
        const entries = (body.Entries as { Id: string; MessageBody: string; DelaySeconds?: number; MessageGroupId?: string }[] | undefined) ?? [];
        if (entries.length === 0) throw new AwsError('EmptyBatchRequest', 'There should be at least one SendMessageBatchRequestEntry in the request.');
        if (entries.length > AWS_LIMITS.sqs.batchEntries) throw new AwsError('TooManyEntriesInBatchRequest', `Maximum number of entries per request are ${AWS_LIMITS.sqs.batchEntries}.`);
        if (new Set(entries.map((entry) => entry.Id)).size !== entries.length) throw new AwsError('BatchEntryIdsNotDistinct', 'Two or more batch entries in the request have the same Id.');
        if (entries.reduce((sum, entry) => sum + Buffer.byteLength(entry.MessageBody ?? ''), 0) > AWS_LIMITS.sqs.batchBytes) {
          throw new AwsError('BatchRequestTooLong', `Batch requests cannot be longer than ${AWS_LIMITS.sqs.batchBytes} bytes.`);
        }
        const Successful: unknown[] = [];
        const Failed: unknown[] = [];
        for (const entry of entries) {
          try {
            Successful.push({ Id: entry.Id, ...queue.send(entry.MessageBody ?? '', entry.DelaySeconds, entry.MessageGroupId) });
          } catch (error) {
            if (!(error instanceof AwsError)) throw error;
            Failed.push({ Id: entry.Id, SenderFault: true, Code: error.code, Message: error.message });
          }
        }
        return { Successful, Failed };
      }
      case 'ReceiveMessage':
        return {
          Messages: await queue.receive({
            max: body.MaxNumberOfMessages as number | undefined,
            visibilityTimeoutSeconds: body.VisibilityTimeout as number | undefined,
            waitSeconds: body.WaitTimeSeconds as number | undefined,
          }),
        };
      case 'DeleteMessage':
        queue.delete(String(body.ReceiptHandle));
        return {};
      case 'ChangeMessageVisibility':
        queue.changeVisibility(String(body.ReceiptHandle), Number(body.VisibilityTimeout));
        return {};
      case 'GetQueueAttributes':
        return { Attributes: queue.attributes() };
      case 'GetQueueUrl':
        return { QueueUrl: queue.settings.url };
      default:
        throw new AwsError('UnsupportedOperation', `${operation} is not imitated locally`);
    }
  }

  /**
   * SES API v2 (REST JSON): the caller is checked against IAM for the identity it sends as, then
   * the local SES answers; an error is its type in `x-amzn-ErrorType` and `{"message"}`, as SES
   * answers it.
   */
  function serveSes(request: IncomingMessage, raw: Buffer, response: ServerResponse) {
    const restJson = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(body));
    };
    try {
      const caller = options.callerOf(restCredential(request, new URL(request.url ?? '/', 'http://edge')).signer ?? '');
      if (!caller) throw new AwsError('UnrecognizedClientException', 'The security token included in the request is invalid.', 403);
      const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
      const sesRequest = { method: request.method ?? 'GET', path: new URL(request.url ?? '/', 'http://edge').pathname, body };
      authorize(caller, [options.ses.access(sesRequest)]);
      restJson(200, options.ses.sendEmail(body));
    } catch (error) {
      if (!(error instanceof AwsError)) throw error;
      restJson(error.code === 'AccessDeniedException' ? 403 : error.status, { message: error.message }, { 'x-amzn-errortype': error.code });
    }
  }

  /** An S3 refusal as S3 answers it: XML, and no body to a HEAD. */
  function failS3(request: IncomingMessage, response: ServerResponse, error: AwsError) {
    response.writeHead(error.status, { 'content-type': 'application/xml' });
    response.end(request.method === 'HEAD' ? undefined : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${error.message}</Message></Error>`);
  }

  /**
   * S3 (the REST API, no X-Amz-Target): the bucket is private, so an unsigned request is refused,
   * except a browser's CORS preflight; a signed one, a function's call or a presigned URL a
   * function made, is checked against the signer's role and the bucket policy, then forwarded
   * as it came (its Host too, so that the local S3 checks the signature as S3 would). A missing
   * object is a 403 to a caller that may not list the bucket, as S3 answers it.
   */
  function serveS3(request: IncomingMessage, raw: Buffer, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://edge');
    const method = request.method ?? 'GET';
    let listable = true;
    if (method !== 'OPTIONS') {
      const { signer } = restCredential(request, url);
      if (!signer) throw new AwsError('AccessDenied', 'Access Denied', 403);
      const caller = options.callerOf(signer);
      if (!caller) throw new AwsError('InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.', 403);
      const access = s3Access(method, url);
      authorize(caller, [access]);
      listable = caller.unchecked || options.policies.decide({ caller: { role: caller.role }, action: 's3:ListBucket', resource: `arn:aws:s3:::${access.bucket}` }, [access.bucket]).allowed;
    }
    const upstream = httpRequest(
      { host: s3.hostname, port: s3.port, path: request.url, method, headers: request.headers, agent },
      (answer) => {
        if (answer.statusCode === 404 && (method === 'GET' || method === 'HEAD') && !listable) {
          answer.resume();
          return failS3(request, response, new AwsError('AccessDenied', 'Access Denied', 403));
        }
        response.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error) => failS3(request, response, new AwsError('ServiceUnavailable', `local S3: ${error.message}`, 503)));
    upstream.end(raw);
  }

  server.on('request', async (request: IncomingMessage, response: ServerResponse) => {
    const target = String(request.headers['x-amz-target'] ?? '');
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      if (!target && restCredential(request, new URL(request.url ?? '/', 'http://edge')).service === 'ses') return serveSes(request, raw, response);
      const accessKeyId = /Credential=([^/]+)\//.exec(String(request.headers.authorization ?? ''))?.[1] ?? '';
      const caller = options.callerOf(accessKeyId);
      if (!caller) throw new AwsError('UnrecognizedClientException', 'The security token included in the request is invalid.');
      const [service, operation] = target.split('.');
      options.onCall?.(caller.functionName, target);
      const body = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
      if (service === 'DynamoDB_20120810') {
        authorize(caller, dynamoDbAccess(operation, body, options.tableArn));
        return forwardToDynamoDb(request, raw, response);
      }
      if (service === 'AWSEvents' && operation === 'PutEvents') {
        authorize(caller, options.eventBridge.busArnsOf(body).map((bus) => ({ action: 'events:PutEvents', resource: bus })));
        return reply(response, 200, options.eventBridge.putEvents(body), { 'content-type': 'application/x-amz-json-1.1' });
      }
      if (service === 'AmazonSQS') return reply(response, 200, await serveSqs(operation, body, caller));
      if (service === 'TrentService') {
        const { action, key } = options.kms.access(operation, body);
        if (!caller.unchecked) {
          const decision = options.policies.decideOnKey({ caller: { role: caller.role }, action, resource: key.arn }, key.policy, options.account);
          if (!decision.allowed) {
            options.onDenied({ functionName: caller.functionName, action, resource: key.arn, reason: decision.reason });
            throw new AwsError('AccessDeniedException', `User: ${caller.principalArn} is not authorized to perform: ${action} on resource: ${key.arn} because ${decision.reason}`);
          }
        }
        return reply(response, 200, options.kms.serve(operation, body, key), { 'content-type': 'application/x-amz-json-1.1' });
      }
      if (service === 'secretsmanager') {
        const secret = options.secrets.find(String(body.SecretId ?? ''));
        // IAM decides on the secret's ARN; an unknown secret is refused as IAM refuses a resource no policy names.
        authorize(caller, [{ action: `secretsmanager:${operation}`, resource: secret?.arn ?? String(body.SecretId ?? '') }]);
        return reply(response, 200, options.secrets.serve(operation, body, secret), { 'content-type': 'application/x-amz-json-1.1' });
      }
      throw new AwsError('UnknownOperationException', `${target || 'A call without X-Amz-Target'} is not served locally`);
    } catch (error) {
      if (error instanceof AwsError) return fail(response, target, error);
      logger.error('local AWS: AWS edge failed', { target, error: (error as Error).message });
      fail(response, target, new AwsError('InternalFailure', (error as Error).message, 500));
    }
  });
  // S3 answers at an endpoint of its own, as in AWS: the one its presigned URLs name, which browsers upload to.
  const s3Server = options.s3.listener;
  s3Server.on('request', async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      serveS3(request, Buffer.concat(chunks), response);
    } catch (error) {
      failS3(request, response, error instanceof AwsError ? error : new AwsError('InternalError', (error as Error).message, 500));
    }
  });
  return {
    close: async () => {
      agent.destroy();
      await closeListeners([server, s3Server]);
    },
  };
}
