import { App, Stack } from 'aws-cdk-lib';
import { HttpApi, HttpRoute, HttpRouteKey } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalAws, type LocalAws } from '../../bin/local/aws/functions';
import { readSynthesizedStack } from '../../bin/local/aws/template';
import { createMailbox, type Mailbox } from '../../bin/local/mailbox';
import { startLocalS3 } from '../../bin/local/s3';

/** The functions of a mini stack, as `build` wires them: each calls AWS as its role allows. */
export interface MiniFunctions {
  [name: string]: LambdaFunction;
}

export interface MiniAws {
  /** The local AWS edge and the template's region: an SDK client's `endpoint` and `region`. */
  edge: { endpoint: string; region: string };
  /** A function's credentials at the edge (its logical id is its access key id), by the name `build` gave it. */
  credentialsOf(name: string): { accessKeyId: string; secretAccessKey: string };
  /** The synthesized resources, as artifact mode reads them. */
  resources: ReturnType<typeof readSynthesizedStack>['resources'];
  mailbox: Mailbox;
  aws: LocalAws;
  stop(): Promise<void>;
}

/**
 * A small CDK app run on the local AWS as artifact mode runs the service's: the service's own
 * constructs (lib/) wired by `build` to a few functions, so that a test calls AWS over HTTP with
 * each function's credentials and meets IAM as the template grants it. The functions' code is
 * never run (a test calls as them); the stack has an HTTP API because the local AWS serves one.
 */
export async function startMiniAws(names: string[], build: (stack: Stack, functions: MiniFunctions) => void, options: { dataDir?: string } = {}): Promise<MiniAws> {
  const outdir = mkdtempSync(join(tmpdir(), 'mini-aws-'));
  const code = join(outdir, 'code');
  mkdirSync(code);
  writeFileSync(join(code, 'index.mjs'), 'export const handler = async () => ({ statusCode: 204 });\n');
  const app = new App({ outdir: join(outdir, 'assembly'), context: { 'aws:cdk:enable-asset-metadata': true } });
  const stack = new Stack(app, 'Mini', { env: { account: '000000000000', region: 'local' } });
  const functions: MiniFunctions = Object.fromEntries(
    names.map((name) => [name, new LambdaFunction(stack, name, { code: Code.fromAsset(code), handler: 'index.handler', runtime: Runtime.NODEJS_22_X })]),
  );
  const api = new HttpApi(stack, 'Api');
  new HttpRoute(api, 'DefaultRoute', { httpApi: api, routeKey: HttpRouteKey.DEFAULT, integration: new HttpLambdaIntegration('CatchAllIntegration', functions[names[0]]) });
  build(stack, functions);
  app.synth();
  const dir = join(outdir, 'assembly');
  const { resources, region } = readSynthesizedStack(dir);
  const dataDir = options.dataDir ?? ':memory:';
  const s3 = await startLocalS3({ dataDir: ':memory:' });
  const mailbox = createMailbox(dataDir);
  const aws = await startLocalAws({
    dir,
    s3,
    dynamodbEndpoint: process.env.DYNAMODB_ENDPOINT!,
    tableName: 'mini',
    dataDir,
    apiUrl: () => 'http://127.0.0.1:1',
    acquirerSecret: '{}',
    mailbox,
  });
  const logicalIdOf = (name: string) => {
    const found = Object.entries(resources).find(([id, resource]) => resource.Type === 'AWS::Lambda::Function' && id.startsWith(name) && id.length === name.length + 8);
    if (!found) throw new Error(`The mini stack has no function ${name}`);
    return found[0];
  };
  return {
    edge: { endpoint: aws.awsEndpoint, region },
    credentialsOf: (name) => ({ accessKeyId: logicalIdOf(name), secretAccessKey: 'mini' }),
    resources,
    mailbox,
    aws,
    stop: async () => {
      await aws.stop();
      await s3.stop();
      rmSync(outdir, { recursive: true, force: true });
    },
  };
}
