// The Node.js runtime of one local execution environment (artifact mode): like Lambda's, it loads
// the bundle named by _HANDLER from LAMBDA_TASK_ROOT once (the init phase), then runs one
// invocation at a time, keeping module state between them. Plain JavaScript on purpose: it runs
// in a bare `node`, as the bundle does in Lambda, with no TypeScript loader.
import console from 'node:console';
import diagnostics from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL, URL } from 'node:url';
import { performance } from 'node:perf_hooks';

const send = (message) => process.send(message);

// The environment ends with the service that runs it (its parent process), as in Lambda.
process.on('disconnect', () => process.exit(0));

/**
 * What an invocation's outgoing requests waited, apart for AWS's (the edge and S3, which the
 * environment's AWS_ENDPOINT_URL* name) and any other host's (a webhook's POST): the sum of their
 * durations, and the time at least one was in flight. Their ratio is how much they overlapped,
 * which bench:cost applies to what its calls would wait in AWS. Both cover the invocation only:
 * at each end of it a request still in flight is counted up to then; one still in flight after
 * STALE_SHARES such ends (a response nobody read, which announces no end) is let go.
 */
const AWS_HOSTS = new Set([process.env.AWS_ENDPOINT_URL, process.env.AWS_ENDPOINT_URL_S3].filter(Boolean).map((url) => new URL(url).host));
const STALE_SHARES = 4;
const requests = { aws: { inFlight: new Map(), since: 0, busyMs: 0, sumMs: 0 }, other: { inFlight: new Map(), since: 0, busyMs: 0, sumMs: 0 } };

/** A request to `host` begins; the function returned ends it (once, whichever of its ends comes first). */
function requestStarted(host) {
  const kind = requests[AWS_HOSTS.has(host) ? 'aws' : 'other'];
  const at = performance.now();
  if (kind.inFlight.size === 0) kind.since = at;
  const request = { mark: at, shares: 0 };
  kind.inFlight.set(request, request);
  return () => {
    if (!kind.inFlight.delete(request)) return;
    const endedAt = performance.now();
    kind.sumMs += endedAt - request.mark;
    if (kind.inFlight.size === 0) kind.busyMs += endedAt - kind.since;
  };
}

/** The invocation's share so far, by kind of request, and a fresh start for the next one. */
function outgoingShare() {
  const at = performance.now();
  const share = {};
  for (const [name, kind] of Object.entries(requests)) {
    if (kind.inFlight.size > 0) kind.busyMs += at - kind.since;
    kind.since = at;
    for (const request of kind.inFlight.values()) {
      kind.sumMs += at - request.mark;
      request.mark = at;
      if (++request.shares >= STALE_SHARES) kind.inFlight.delete(request);
    }
    share[name] = { busyMs: kind.busyMs, sumMs: kind.sumMs };
    kind.busyMs = 0;
    kind.sumMs = 0;
  }
  return share;
}

// node:http (the AWS SDK, the webhook sender) and fetch (undici) both announce their requests.
diagnostics.subscribe('http.client.request.start', ({ request }) => {
  const ended = requestStarted(request.getHeader('host') ?? request.host);
  // No 'error' listener: one would change what an unhandled request error does; 'close' follows an error anyway.
  request.once('response', (response) => response.once('end', ended));
  request.once('close', ended);
});
const fetching = new WeakMap();
diagnostics.subscribe('undici:request:create', ({ request }) => fetching.set(request, requestStarted(new URL(request.origin).host)));
const fetched = ({ request }) => fetching.get(request)?.();
diagnostics.subscribe('undici:request:trailers', fetched);
diagnostics.subscribe('undici:request:error', fetched);

const describe = (error) => ({
  errorType: error?.name ?? 'Error',
  errorMessage: error?.message ?? String(error),
  trace: String(error?.stack ?? '').split('\n'),
});

async function init() {
  const handlerSetting = process.env._HANDLER ?? '';
  const dot = handlerSetting.lastIndexOf('.');
  const moduleName = handlerSetting.slice(0, dot);
  const exportName = handlerSetting.slice(dot + 1);
  const file = ['.mjs', '.js', '.cjs'].map((extension) => join(process.env.LAMBDA_TASK_ROOT, moduleName + extension)).find(existsSync);
  if (!file) throw Object.assign(new Error(`Cannot find module '${moduleName}'`), { name: 'Runtime.ImportModuleError' });
  const module = await import(pathToFileURL(file).href);
  const handler = module[exportName] ?? module.default?.[exportName];
  if (typeof handler !== 'function') throw Object.assign(new Error(`${handlerSetting} is undefined or not exported`), { name: 'Runtime.HandlerNotFound' });
  return handler;
}

const ready = init().then(
  (handler) => {
    // The CPU the init took (what Lambda's CPU share, proportional to memory, stretches: bench:cost).
    const { user, system } = process.cpuUsage();
    send({ type: 'ready', initCpuMs: (user + system) / 1000 });
    return handler;
  },
  (error) => {
    send({ type: 'init-error', error: describe(error) });
    return undefined;
  },
);

process.on('message', async (message) => {
  if (message.type !== 'invoke') return;
  const handler = await ready;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    invokedFunctionArn: message.functionArn,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: message.requestId,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    getRemainingTimeInMillis: () => Math.max(0, message.deadline - Date.now()),
  };
  outgoingShare();
  const cpu = process.cpuUsage();
  const cpuMs = () => {
    const { user, system } = process.cpuUsage(cpu);
    return (user + system) / 1000;
  };
  try {
    const result = await handler(JSON.parse(message.payload), context);
    send({ type: 'result', id: message.id, payload: JSON.stringify(result ?? null), cpuMs: cpuMs(), outgoing: outgoingShare() });
  } catch (error) {
    console.error(`${message.requestId}\tERROR\tInvoke Error\t${JSON.stringify(describe(error))}`);
    send({ type: 'error', id: message.id, error: describe(error), cpuMs: cpuMs(), outgoing: outgoingShare() });
  }
});
