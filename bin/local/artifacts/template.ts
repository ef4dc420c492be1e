import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
}

/** One stack as `cdk synth -o <dir>` wrote it: its template and where it would be deployed. */
export interface SynthesizedStack {
  dir: string;
  stackName: string;
  region: string;
  account: string;
  resources: Record<string, CfnResource>;
}

interface CloudAssemblyManifest {
  artifacts?: Record<string, { type: string; environment?: string; properties?: { templateFile?: string } }>;
}

/** The account of every local ARN when the stack names none, as in AWS's own examples. */
export const LOCAL_ACCOUNT = '000000000000';

/** Reads the one CloudFormation stack of a cloud assembly (`cdk synth -o <dir>`). */
export function readSynthesizedStack(dir: string): SynthesizedStack {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as CloudAssemblyManifest;
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack');
  if (stacks.length !== 1) {
    throw new Error(`${dir} holds ${stacks.length} stacks (${stacks.map(([name]) => name).join(', ') || 'none'}); artifact mode serves exactly one`);
  }
  const [stackName, artifact] = stacks[0];
  const template = JSON.parse(readFileSync(join(dir, artifact.properties?.templateFile ?? `${stackName}.template.json`), 'utf8')) as {
    Resources?: Record<string, CfnResource>;
  };
  // aws://<account>/<region>, either part "unknown-…" for an environment-agnostic stack.
  const [, account, region] = /^aws:\/\/([^/]+)\/(.+)$/.exec(artifact.environment ?? '') ?? [];
  return {
    dir,
    stackName,
    account: account && !account.startsWith('unknown-') ? account : LOCAL_ACCOUNT,
    region: region && !region.startsWith('unknown-') ? region : 'local',
    resources: template.Resources ?? {},
  };
}

/** The logical ids of the resources of one type, in template order. */
export function resourcesOfType(stack: SynthesizedStack, type: string): [string, CfnResource][] {
  return Object.entries(stack.resources).filter(([, resource]) => resource.Type === type);
}

/** The logical id of the function that serves `routeKey` (`GET /v1/openapi.json`), read from the template. */
export function functionOfRoute(resources: Record<string, CfnResource>, routeKey: string): string {
  const route = Object.values(resources).find((resource) => resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties?.RouteKey === routeKey);
  const integration = JSON.stringify(route?.Properties?.Target).match(/"Ref":"([^"]+)"/)?.[1];
  const uri = resources[integration ?? '']?.Properties?.IntegrationUri as { 'Fn::GetAtt': [string, string] } | undefined;
  if (!uri) throw new Error(`No function serves ${routeKey}`);
  return uri['Fn::GetAtt'][0];
}

/** What `Ref` and `Fn::GetAtt` of a resource stand for on this machine. */
export type ReferenceResolver = (logicalId: string, attribute?: string) => string;

const PSEUDO_PARAMETERS = (stack: SynthesizedStack): Record<string, string> => ({
  'AWS::AccountId': stack.account,
  'AWS::Region': stack.region,
  'AWS::Partition': 'aws',
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': stack.stackName,
});

/**
 * Resolves the intrinsic functions a synthesized template uses (Ref, Fn::GetAtt, Fn::Join,
 * Fn::Sub, Fn::Select, Fn::Split) to local values; anything else is an error that names it,
 * rather than a value that silently differs from AWS's.
 */
export function createIntrinsicResolver(stack: SynthesizedStack, reference: ReferenceResolver) {
  const pseudo = PSEUDO_PARAMETERS(stack);
  const ref = (name: string) => pseudo[name] ?? reference(name);

  function resolve(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    const [name, argument] = entries[0] ?? [];
    if (entries.length === 1 && (name === 'Ref' || name.startsWith('Fn::'))) return intrinsic(name, argument);
    return Object.fromEntries(entries.map(([key, inner]) => [key, resolve(inner)]));
  }

  function intrinsic(name: string, argument: unknown): unknown {
    switch (name) {
      case 'Ref':
        return ref(argument as string);
      case 'Fn::GetAtt': {
        const [logicalId, attribute] = Array.isArray(argument) ? argument : String(argument).split(/\.(.+)/);
        return reference(logicalId, attribute);
      }
      case 'Fn::Join': {
        const [separator, parts] = argument as [string, unknown[]];
        return (resolve(parts) as unknown[]).join(separator);
      }
      case 'Fn::Select': {
        const [index, list] = resolve(argument) as [string | number, unknown[]];
        return list[Number(index)];
      }
      case 'Fn::Split': {
        const [separator, text] = resolve(argument) as [string, string];
        return text.split(separator);
      }
      case 'Fn::Sub': {
        const [text, variables] = Array.isArray(argument) ? (argument as [string, Record<string, unknown>]) : [argument as string, {}];
        const values = resolve(variables) as Record<string, string>;
        return text.replace(/\$\{([^}!]+)\}/g, (_match, variable: string) => {
          if (variable in values) return values[variable];
          const [logicalId, attribute] = variable.split(/\.(.+)/);
          return attribute ? reference(logicalId, attribute) : ref(logicalId);
        });
      }
      default:
        throw new Error(`${name} is not resolved in artifact mode`);
    }
  }

  return resolve;
}
