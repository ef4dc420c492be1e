// The Node.js runtime of one local execution environment (artifact mode): like Lambda's, it loads
// the bundle named by _HANDLER from LAMBDA_TASK_ROOT once (the init phase), then runs one
// invocation at a time, keeping module state between them. Plain JavaScript on purpose: it runs
// in a bare `node`, as the bundle does in Lambda, with no TypeScript loader.
import console from 'node:console';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const send = (message) => process.send(message);

// The environment ends with the service that runs it (its parent process), as in Lambda.
process.on('disconnect', () => process.exit(0));

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
  const cpu = process.cpuUsage();
  const cpuMs = () => {
    const { user, system } = process.cpuUsage(cpu);
    return (user + system) / 1000;
  };
  try {
    const result = await handler(JSON.parse(message.payload), context);
    send({ type: 'result', id: message.id, payload: JSON.stringify(result ?? null), cpuMs: cpuMs() });
  } catch (error) {
    console.error(`${message.requestId}\tERROR\tInvoke Error\t${JSON.stringify(describe(error))}`);
    send({ type: 'error', id: message.id, error: describe(error), cpuMs: cpuMs() });
  }
});
