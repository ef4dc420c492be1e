import { Duration } from 'aws-cdk-lib';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type ICommandHooks, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join, posix } from 'node:path';

const ROOT = join(__dirname, '..');

export interface ServiceFunctionProps {
  /** Folder under functions/ holding handler.ts. */
  handler: string;
  environment?: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  /** Project files (relative to the root) the function reads at run time: copied into its bundle at the same path. */
  files?: string[];
}

/**
 * The one place for function defaults: Node 22 on ARM64, minified ESM bundle with external
 * source maps (no sourcesContent: smaller bundles, faster cold starts), its own log group,
 * X-Ray tracing. Grants are added per function by the stack.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH });
    const options: NodejsFunctionProps = {
      entry: join(ROOT, 'functions', props.handler, 'handler.ts'),
      handler: 'handler',
      projectRoot: ROOT,
      depsLockFilePath: join(ROOT, 'package-lock.json'),
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
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
