// The Node.js runtime of one local execution environment (artifact mode): like Lambda's, it loads
// the bundle named by _HANDLER from LAMBDA_TASK_ROOT once (the init phase), then runs one
// invocation at a time, keeping module state between them. Plain JavaScript on purpose: it runs
// in a bare `node`, as the bundle does in Lambda, with no TypeScript loader.
import console from 'node:console';
import diagnostics from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const send = (message) => process.send(message);

// The environment ends with the service that runs it (its parent process), as in Lambda.
process.on('disconnect', () => process.exit(0));

/**
 * What an invocation's outgoing requests (its AWS calls, a webhook's POST) waited: the sum of
 * their durations, and the time at least one was in flight. Their ratio is how much they
 * overlapped, which bench:cost applies to what its calls would wait in AWS.
 */
const outgoing = { inFlight: 0, since: 0, busyMs: 0, sumMs: 0 };

function requestStarted() {
  const at = performance.now();
  if (outgoing.inFlight++ === 0) outgoing.since = at;
  return at;
}

function requestEnded(startedAt) {
  const at = performance.now();
  outgoing.sumMs += at - startedAt;
  if (--outgoing.inFlight === 0) outgoing.busyMs += at - outgoing.since;
}

/** The invocation's share so far; a request still in flight counts up to now, and on into the next share. */
function outgoingShare() {
  const at = performance.now();
  if (outgoing.inFlight > 0) {
    outgoing.busyMs += at - outgoing.since;
    outgoing.since = at;
  }
  const share = { busyMs: outgoing.busyMs, sumMs: outgoing.sumMs };
  outgoing.busyMs = 0;
  outgoing.sumMs = 0;
  return share;
}

// node:http (the AWS SDK, the webhook sender) and fetch (undici) both announce their requests.
diagnostics.subscribe('http.client.request.start', ({ request }) => {
  const startedAt = requestStarted();
  request.once('close', () => requestEnded(startedAt));
});
const fetching = new WeakMap();
diagnostics.subscribe('undici:request:create', ({ request }) => fetching.set(request, requestStarted()));
const fetched = ({ request }) => {
  if (!fetching.has(request)) return;
  requestEnded(fetching.get(request));
  fetching.delete(request);
};
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
