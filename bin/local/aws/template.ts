import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  Metadata?: Record<string, unknown>;
  Condition?: string;
  DependsOn?: string | string[];
}

/** The parts of a CloudFormation template that the local AWS reads. */
export interface CfnTemplate {
  Parameters?: Record<string, { Type: string; Default?: unknown }>;
  Conditions?: Record<string, unknown>;
  Resources?: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** One stack as `cdk synth -o <dir>` wrote it: its template and where it would be deployed. */
export interface SynthesizedStack {
  dir: string;
  stackName: string;
  region: string;
  account: string;
  /** The stack's resources and its nested stacks' resources, flattened (`flattenNestedStacks`). */
  resources: Record<string, CfnResource>;
  /** The stack's template file, then its nested stacks' templates. */
  templateFiles: string[];
}

interface CloudAssemblyManifest {
  artifacts?: Record<string, { type: string; environment?: string; properties?: { templateFile?: string } }>;
}

/** The account of every local ARN when the stack names none, as in AWS's own examples. */
export const LOCAL_ACCOUNT = '000000000000';

const NESTED_STACK = 'AWS::CloudFormation::Stack';

/**
 * Reads the one CloudFormation stack of a cloud assembly (`cdk synth -o <dir>`), with its nested
 * stacks: each `AWS::CloudFormation::Stack`'s template is the assembly file its `aws:asset:path`
 * names, as `cdk deploy` uploads it.
 */
export function readSynthesizedStack(dir: string): SynthesizedStack {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as CloudAssemblyManifest;
  const stacks = Object.entries(manifest.artifacts ?? {}).filter(([, artifact]) => artifact.type === 'aws:cloudformation:stack');
  if (stacks.length !== 1) {
    throw new Error(`${dir} holds ${stacks.length} stacks (${stacks.map(([name]) => name).join(', ') || 'none'}); the local AWS serves exactly one`);
  }
  const [stackName, artifact] = stacks[0];
  const templateFiles: string[] = [];
  const readTemplate = (file: string) => {
    templateFiles.push(file);
    return JSON.parse(readFileSync(file, 'utf8')) as CfnTemplate;
  };
  const template = readTemplate(join(dir, artifact.properties?.templateFile ?? `${stackName}.template.json`));
  const { resources } = flattenNestedStacks(template, stackName, (logicalId, resource) => {
    const asset = resource.Metadata?.['aws:asset:path'];
    if (typeof asset !== 'string') throw new Error(`Nested stack ${logicalId} names no template file (aws:asset:path): the local AWS needs a cdk synth output`);
    return readTemplate(join(dir, asset));
  });
  // aws://<account>/<region>, either part "unknown-…" for an environment-agnostic stack.
  const [, account, region] = /^aws:\/\/([^/]+)\/(.+)$/.exec(artifact.environment ?? '') ?? [];
  return {
    dir,
    stackName,
    account: account && !account.startsWith('unknown-') ? account : LOCAL_ACCOUNT,
    region: region && !region.startsWith('unknown-') ? region : 'local',
    resources,
    templateFiles,
  };
}

/** The template of a nested stack, given its `AWS::CloudFormation::Stack` resource. */
export type NestedTemplateReader = (logicalId: string, resource: CfnResource) => CfnTemplate;

export interface FlattenedStack {
  resources: Record<string, CfnResource>;
  /** Output name → its value, over the flattened resources. */
  outputs: Record<string, unknown>;
}

/**
 * A stack and its nested stacks as one resource map, wired as CloudFormation wires them: each
 * nested stack's resources under its logical id followed by theirs (alphanumeric, as logical ids
 * are: functions are known to the edge and to DynamoDB Local by theirs), its parameters replaced
 * by what the parent passes (intrinsics over the parent's resources, or its declared default),
 * the parent's `Fn::GetAtt [Nested, Outputs.X]` replaced by that output's value, and
 * `AWS::StackName` in a nested stack by its own name. Nothing joins what AWS keeps apart: each
 * resource keeps its own properties (a role its own policies), and two ids that would meet are
 * an error. What AWS refuses is an error here too: a parameter the parent does not pass
 * (without a default), a value for a parameter the template does not declare, an output the
 * nested stack does not have. Conditions in a nested template are not resolved: such a template
 * is refused.
 */
export function flattenNestedStacks(template: CfnTemplate, stackName: string, readNested: NestedTemplateReader): FlattenedStack {
  return flatten(template, { stackName }, readNested);
}

function flatten(template: CfnTemplate, scope: { stackName: string; prefix?: string; passed?: Record<string, unknown> }, readNested: NestedTemplateReader): FlattenedStack {
  const resources = template.Resources ?? {};
  const nested = scope.prefix !== undefined;
  const where = nested ? `Nested stack ${scope.prefix}` : `Stack ${scope.stackName}`;
  const idOf = (logicalId: string) => `${scope.prefix ?? ''}${logicalId}`;
  const isStack = (logicalId: string) => resources[logicalId]?.Type === NESTED_STACK;
  if (nested && (template.Conditions || Object.values(resources).some((resource) => resource.Condition))) {
    throw new Error(`${where}: conditions in a nested template are not resolved locally`);
  }
  const parameters = nested ? parameterValues(template, scope.passed ?? {}, where) : {};

  const children = new Map<string, FlattenedStack | 'reading'>();
  function child(logicalId: string): FlattenedStack {
    const known = children.get(logicalId);
    if (known === 'reading') throw new Error(`${where}: nested stack ${logicalId} takes a parameter from its own outputs`);
    if (known) return known;
    children.set(logicalId, 'reading');
    const resource = resources[logicalId];
    const passed = rewrite(resource.Properties?.Parameters ?? {}) as Record<string, unknown>;
    const flattened = flatten(readNested(logicalId, resource), { stackName: `${scope.stackName}-${logicalId}`, prefix: idOf(logicalId), passed }, readNested);
    children.set(logicalId, flattened);
    return flattened;
  }

  function ref(name: string): unknown {
    if (name in parameters) return parameters[name];
    if (nested && name === 'AWS::StackName') return scope.stackName;
    if (name.startsWith('AWS::')) return { Ref: name };
    if (isStack(name)) throw new Error(`${where}: Ref of nested stack ${name} (its stack id) is not resolved locally`);
    if (nested && !(name in resources)) throw new Error(`${where} refers to ${name}, which is neither its resource nor its parameter`);
    return { Ref: idOf(name) };
  }

  function getAtt(logicalId: string, attribute: string): unknown {
    if (!isStack(logicalId)) return { 'Fn::GetAtt': [idOf(logicalId), attribute] };
    const output = /^Outputs\.(.+)$/.exec(attribute)?.[1];
    const { outputs } = child(logicalId);
    if (output === undefined || !(output in outputs)) throw new Error(`${where}: nested stack ${logicalId} has no ${attribute}`);
    return outputs[output];
  }

  /** A `Fn::Sub` over the flattened map: a reference in its text becomes one of its variables. */
  function sub(argument: unknown): unknown {
    const [text, variables] = Array.isArray(argument) ? (argument as [string, Record<string, unknown>]) : [argument as string, {}];
    const values = rewrite(variables) as Record<string, unknown>;
    const rewritten = text.replace(/\$\{([^}!]+)\}/g, (match, variable: string) => {
      const pseudo = variable.startsWith('AWS::') && !(nested && variable === 'AWS::StackName');
      if (variable in variables || pseudo) return match;
      const [logicalId, attribute] = variable.split(/\.(.+)/);
      let name = variable.replace(/\W/g, '');
      while (name in values) name += '_';
      values[name] = attribute ? getAtt(logicalId, attribute) : ref(logicalId);
      return `\${${name}}`;
    });
    return { 'Fn::Sub': [rewritten, values] };
  }

  function rewrite(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    const [name, argument] = entries[0] ?? [];
    if (entries.length === 1 && name === 'Ref') return ref(argument as string);
    if (entries.length === 1 && name === 'Fn::GetAtt') {
      const [logicalId, attribute] = Array.isArray(argument) ? (argument as [string, string]) : String(argument).split(/\.(.+)/);
      return getAtt(logicalId, attribute);
    }
    if (entries.length === 1 && name === 'Fn::Sub') return sub(argument);
    return Object.fromEntries(entries.map(([key, inner]) => [key, rewrite(inner)]));
  }

  const flat: Record<string, CfnResource> = {};
  const add = (logicalId: string, resource: CfnResource) => {
    if (logicalId in flat) throw new Error(`${where}: two resources would be ${logicalId} once its nested stacks are read in`);
    flat[logicalId] = resource;
  };
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (isStack(logicalId)) {
      for (const [id, inner] of Object.entries(child(logicalId).resources)) add(id, inner);
      continue;
    }
    const { Properties, DependsOn, ...rest } = resource;
    // A dependency on a nested stack is on all of its resources, which the map has no way to say: locally nothing waits on another.
    const dependsOn = (DependsOn === undefined ? [] : [DependsOn].flat()).filter((dependency) => !isStack(dependency)).map(idOf);
    add(idOf(logicalId), {
      ...rest,
      ...(Properties ? { Properties: rewrite(Properties) as Record<string, unknown> } : {}),
      ...(dependsOn.length > 0 ? { DependsOn: dependsOn } : {}),
    });
  }
  const outputs = Object.fromEntries(Object.entries(template.Outputs ?? {}).map(([name, output]) => [name, rewrite(output.Value)]));
  return { resources: flat, outputs };
}

/** What each parameter of a nested template stands for: the value its parent passes, else its default. */
function parameterValues(template: CfnTemplate, passed: Record<string, unknown>, where: string): Record<string, unknown> {
  const declared = template.Parameters ?? {};
  const undeclared = Object.keys(passed).filter((name) => !(name in declared));
  if (undeclared.length > 0) throw new Error(`${where}: its parent passes ${undeclared.join(', ')}, which its template does not declare`);
  return Object.fromEntries(
    Object.entries(declared).map(([name, parameter]) => {
      if (parameter.Type !== 'String') throw new Error(`${where}: parameter ${name} is a ${parameter.Type}; the local AWS passes String parameters`);
      if (name in passed) return [name, passed[name]];
      if (parameter.Default !== undefined) return [name, parameter.Default];
      throw new Error(`${where}: its parent passes no value for parameter ${name}, which has no default`);
    }),
  );
}

/** The logical ids of the resources of one type, in template order. */
export function resourcesOfType(stack: SynthesizedStack, type: string): [string, CfnResource][] {
  return Object.entries(stack.resources).filter(([, resource]) => resource.Type === type);
}

/** The logical id of the function that serves `routeKey` (`GET /v1/openapi.json`), read from the template. */
export function functionOfRoute(resources: Record<string, CfnResource>, routeKey: string): string {
  const route = Object.values(resources).find((resource) => resource.Type === 'AWS::ApiGatewayV2::Route' && resource.Properties?.RouteKey === routeKey);
  const integration = JSON.stringify(route?.Properties?.Target).match(/"Ref":"([^"]+)"/)?.[1];
  const uri = resources[integration ?? '']?.Properties?.IntegrationUri as { 'Fn::GetAtt'?: [string, string]; Ref?: string } | undefined;
  if (!uri) throw new Error(`No function serves ${routeKey}`);
  // A money path deployed as a canary is integrated through its alias (lib/canary.ts): the function behind it.
  if (uri.Ref) return (resources[uri.Ref].Properties!.FunctionName as { Ref: string }).Ref;
  return uri['Fn::GetAtt']![0];
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
        throw new Error(`${name} is not resolved locally`);
    }
  }

  return resolve;
}
