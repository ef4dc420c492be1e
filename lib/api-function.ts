import { AssetHashType, DockerImage, Duration, type CfnResource } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { dirname, join, relative } from 'node:path';
import { ROUTE_TIMEOUT_SECONDS } from '../shared/api/operation';
import { BUNDLE_EVERY_HANDLER_CONTEXT, bundleInto } from './function-bundles';
import { stageOf } from './stages';

const ROOT = join(__dirname, '..');

/**
 * The function resource's metadata naming its handler's source file (relative to the project
 * root), as `aws:asset:path` names its bundle: the local stack's source mode runs that module in
 * place of the bundle (docs/architecture.md). CloudFormation ignores it.
 */
export const SOURCE_ENTRY_METADATA = 'payment-ops:source-entry';

/**
 * Every function's memory, chosen by measurement as AWS Lambda Power Tuning chooses it
 * ("balanced": the least of cost and duration, each over its largest; `npm run bench:cost`,
 * docs/benchmarks.md): each function a paid checkout runs (the checkout's page, its Pay and its
 * thank-you page, the outbox processor, the webhook deliverer, the minute jobs) comes out at
 * 512 MB, where its 8–40 ms of CPU an invocation stretch by 3.5 (Lambda's CPU share grows with
 * memory to one vCPU at 1,769 MB) while it mostly waits for DynamoDB. The other functions are
 * handlers of the same kind (a few DynamoDB calls, a page or a JSON answer) and take the same,
 * but for those whose declaration names their own (`memoryMb`: a password's hash, a dispute's
 * PDFs).
 */
export const FUNCTION_MEMORY_MB = 512;

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
  /** Concurrency reserved for it (and its most): a stream processor's, which a burst of requests must not starve. */
  reservedConcurrency?: number;
}

/**
 * The one place for function defaults: Node 22 on ARM64, its handler's esbuild bundle (how it
 * is bundled: lib/function-bundles.ts) as the code asset, its own log group (or one it
 * shares) kept as long as its stage keeps logs, X-Ray tracing where its stage traces, INFO logs
 * and its stage's metric namespace (lib/stages.ts). Grants are added per function by the stack.
 */
export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const stage = stageOf(this);
    const logGroup = props.logGroup ?? new LogGroup(this, 'Logs', { retention: stage.logRetention });
    // A role of its own, without AWSLambdaBasicExecutionRole (which may create and write every
    // log group of the account): it writes the streams of its own log group, nothing else.
    const role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const entry = props.entry ?? join(ROOT, 'functions', props.handler, 'handler.ts');
    this.function = new LambdaFunction(this, 'Function', {
      // The asset is the bundle (its hash, the bundle's): a stack whose bundling is skipped (the
      // tests', source mode's) builds nothing.
      code: Code.fromAsset(dirname(entry), {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          image: DockerImage.fromRegistry('unused-esbuild-runs-locally'),
          local: {
            tryBundle: (outputDir) => {
              bundleInto(entry, outputDir, { files: props.files, everyHandler: this.node.tryGetContext(BUNDLE_EVERY_HANDLER_CONTEXT) === true });
              return true;
            },
          },
        },
      }),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? FUNCTION_MEMORY_MB,
      timeout: props.timeout ?? Duration.seconds(ROUTE_TIMEOUT_SECONDS),
      tracing: stage.tracing ? Tracing.ACTIVE : Tracing.DISABLED,
      logGroup,
      role,
      reservedConcurrentExecutions: props.reservedConcurrency,
      environment: {
        // INFO: one line per request and per job run; DEBUG only while investigating (docs/operations.md).
        LOG_LEVEL: 'INFO',
        METRICS_NAMESPACE: stage.metricsNamespace,
        ...props.environment,
      },
    });
    (this.function.node.defaultChild as CfnResource).addMetadata(SOURCE_ENTRY_METADATA, relative(ROOT, entry).split('\\').join('/'));
    NagSuppressions.addResourceSuppressions(
      this,
      [
        ...(stage.tracing
          ? [
              {
                id: 'AwsSolutions-IAM5',
                reason: `Function ${id}: its X-Ray tracing grant (xray:PutTraceSegments, xray:PutTelemetryRecords) has no resource-level permissions.`,
                appliesTo: ['Resource::*'],
              },
            ]
          : []),
        // L1 has no finding ids, so it cannot take appliesTo: it is scoped to this function instead.
        {
          id: 'AwsSolutions-L1',
          reason: `Function ${id} runs Node.js 22, not Lambda's newest Node.js runtime: its bundle targets node22 (docs/decisions.md 6), and Lambda supports nodejs22.x until Node.js 22's end of life (April 2027). Moving on is a runtime change of its own, measured with npm run bench:cold.`,
        },
      ],
      true,
    );
  }
}
