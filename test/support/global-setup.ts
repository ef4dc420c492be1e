import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDynamoDbLocal } from '../../bin/local/dynamodb-local';
import { freePort } from '../../bin/local/free-port';

/**
 * The JVM options of the run's DynamoDB Local: only Java's first JIT compiler (C1). Over a jest
 * pass of a few minutes the optimizing compiler (C2) cost more CPU than its faster code saved:
 * 38 HTTP suites used 97 s of the JVM's CPU with it, 75 s without (docs/decisions.md 65).
 */
const DYNAMODB_LOCAL_JAVA_OPTIONS = '-XX:TieredStopAtLevel=1';

/**
 * One in-memory DynamoDB Local for the whole run, behind the contention layer (every test file
 * goes through it, in both modes); every test file gets its own table in it. In source mode,
 * the template the stacks serve the handler modules by, synthesized once for the run
 * (LOCAL_SOURCE_TEMPLATE).
 */
export default async function globalSetup(): Promise<void> {
  if (!process.env.LAMBDA_ARTIFACTS && !process.env.LOCAL_SOURCE_TEMPLATE) {
    const { synthesizeForSources } = await import('../../bin/local/source-template');
    process.env.LOCAL_SOURCE_TEMPLATE = synthesizeForSources(mkdtempSync(join(tmpdir(), 'source-template-')));
    (globalThis as { __sourceTemplate?: string }).__sourceTemplate = process.env.LOCAL_SOURCE_TEMPLATE;
  }
  const endpoint = `http://127.0.0.1:${await freePort()}`;
  // The jar inherits this process's environment when it starts; the jest workers start after it is restored.
  const javaOptions = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = [javaOptions, DYNAMODB_LOCAL_JAVA_OPTIONS].filter(Boolean).join(' ');
  try {
    const dynamo = await ensureDynamoDbLocal(endpoint, ':memory:');
    process.env.DYNAMODB_ENDPOINT = endpoint;
    (globalThis as { __dynamo?: typeof dynamo }).__dynamo = dynamo;
  } finally {
    if (javaOptions === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = javaOptions;
  }
}
