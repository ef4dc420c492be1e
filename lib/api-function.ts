import { Duration, type CfnResource } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type ICommandHooks, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { join, posix, relative } from 'node:path';
import { ROUTE_TIMEOUT_SECONDS } from '../shared/api/operation';
import { METRICS_NAMESPACE } from '../shared/observability/catalog';

const ROOT = join(__dirname, '..');

/**
 * The function resource's metadata naming its handler's source file (relative to the project
 * root), as `aws:asset:path` names its bundle: the local stack's source mode runs that module in
 * place of the bundle (docs/architecture.md). CloudFormation ignores it.
 */
export const SOURCE_ENTRY_METADATA = 'payment-ops:source-entry';

export interface ServiceFunctionProps {
  /** Folder under functions/ holding handler.ts. */
  handler: string;
  /** Another entry file (the benchmark's floor function): bundled exactly like the service's. */
  entry?: string;
  environment?: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  /** Project files (relative to the root) the function reads at run time: copied into its bundle at the same path. */
  files?: string[];
  /** A log group shared with other functions (the routes'); otherwise the function gets its own. */
  logGroup?: ILogGroup;
}

/**
 * The one place for function defaults: Node 22 on ARM64, minified ESM bundle with an external
 * source map (no sourcesContent) shipped beside it but not loaded at run time
 * (`--enable-source-maps` made the GET payment-link init 1.4× slower: `npm run bench:cold`;
 * stack traces are mapped offline, docs/operations.md), its own log group (or one it shares), X-Ray tracing, INFO
 * logs and the service's metric namespace. Grants are added per function by the stack.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const logGroup = props.logGroup ?? new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    const entry = props.entry ?? join(ROOT, 'functions', props.handler, 'handler.ts');
    const options: NodejsFunctionProps = {
      entry,
      handler: 'handler',
      projectRoot: ROOT,
      depsLockFilePath: join(ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(ROUTE_TIMEOUT_SECONDS),
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: {
        // INFO: one line per request and per job run; DEBUG only while investigating (docs/operations.md).
        LOG_LEVEL: 'INFO',
        METRICS_NAMESPACE,
        ...props.environment,
      },
      bundling: {
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        format: OutputFormat.ESM,
        target: 'node22',
        mainFields: ['module', 'main'],
        // Bundle the SDK too: one pinned version everywhere, tree-shaken.
        externalModules: [],
        banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
        ...(props.files?.length ? { commandHooks: copyIntoBundle(props.files) } : {}),
      },
    };
    this.function = new NodejsFunction(this, 'Function', options);
    (this.function.node.defaultChild as CfnResource).addMetadata(SOURCE_ENTRY_METADATA, relative(ROOT, entry).split('\\').join('/'));
    NagSuppressions.addResourceSuppressions(
      this,
      [
        {
          id: 'AwsSolutions-IAM4',
          reason: `Function ${id}: AWSLambdaBasicExecutionRole only lets it write its own CloudWatch log streams; a custom copy would be identical.`,
          appliesTo: ['Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole'],
        },
        {
          id: 'AwsSolutions-IAM5',
          reason: `Function ${id}: its X-Ray tracing grant (xray:PutTraceSegments, xray:PutTelemetryRecords) has no resource-level permissions.`,
          appliesTo: ['Resource::*'],
        },
        // L1 has no finding ids, so it cannot take appliesTo: it is scoped to this function instead.
        { id: 'AwsSolutions-L1', reason: `Function ${id} runs Node.js 22 by decision: the runtime the service is built and tested for.` },
      ],
      true,
    );
  }
}

/** After esbuild: copy `files` into the bundle (e.g. node_modules/swagger-ui-dist/…), where `require.resolve` finds them. */
export function copyIntoBundle(files: string[]): ICommandHooks {
  return {
    beforeBundling: () => [],
    beforeInstall: () => [],
    afterBundling: (inputDir, outputDir) =>
      files.map((file) => `mkdir -p "${posix.join(outputDir, posix.dirname(file))}" && cp "${posix.join(inputDir, file)}" "${posix.join(outputDir, file)}"`),
  };
}
