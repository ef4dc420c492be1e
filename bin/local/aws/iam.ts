import { logger } from '../../../shared/observability/logger';
import { resourcesOfType, type SynthesizedStack } from './template';

export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  Resource?: string | string[];
  Principal?: '*' | Record<string, string | string[]>;
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** Who asks: a function's role, or an AWS service acting for a resource (a rule, an API). */
export type Caller = { role: string } | { service: string };

export interface AccessRequest {
  caller: Caller;
  action: string;
  resource: string;
  /**
   * Condition keys of the request (aws:SourceArn, …; a multivalued one as a list: the item keys
   * of a DynamoDB call, dynamodb:LeadingKeys); aws:SecureTransport is always true, as from the
   * deployed SDK.
   */
  context?: Record<string, string | string[]>;
}

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Each pattern compiled once: every call through the edge is decided anew, from the same few statements. */
const compiled = new Map<string, RegExp>();

/** IAM's wildcards: `*` any run of characters, `?` one. */
function wildcard(pattern: string, value: string, ignoreCase = false): boolean {
  const key = `${ignoreCase ? 'i' : 's'}${pattern}`;
  let expression = compiled.get(key);
  if (!expression) {
    const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    expression = new RegExp(`^${source}$`, ignoreCase ? 'i' : '');
    compiled.set(key, expression);
  }
  return expression.test(value);
}

const warned = new Set<string>();

/** The condition operators CDK writes; a statement with any other never applies here (and says so once). */
const OPERATORS: Record<string, (expected: string, actual: string) => boolean> = {
  Bool: (expected, actual) => expected.toLowerCase() === actual.toLowerCase(),
  StringEquals: (expected, actual) => expected === actual,
  StringLike: (expected, actual) => wildcard(expected, actual),
  ArnEquals: (expected, actual) => expected === actual,
  ArnLike: (expected, actual) => wildcard(expected, actual),
};

/**
 * A condition on a multivalued key (IAM's set operators): `ForAllValues:` holds when every value
 * of the request matches one of the condition's, and, as in IAM, when the request has no such
 * key at all; `ForAnyValue:` when one value matches.
 */
const SET_OPERATORS: Record<string, (holds: (actual: string) => boolean, actual: string[] | undefined) => boolean> = {
  'ForAllValues:': (holds, actual) => (actual ?? []).every(holds),
  'ForAnyValue:': (holds, actual) => (actual ?? []).some(holds),
};

function conditionsHold(statement: PolicyStatement, context: Record<string, string | string[]>): boolean {
  return Object.entries(statement.Condition ?? {}).every(([qualified, keys]) => {
    const set = Object.keys(SET_OPERATORS).find((prefix) => qualified.startsWith(prefix));
    const operator = set ? qualified.slice(set.length) : qualified;
    const test = OPERATORS[operator];
    if (!test) {
      if (!warned.has(qualified)) logger.warn('local AWS: IAM condition operator not evaluated; its statements never apply', { operator: qualified });
      warned.add(qualified);
      return false;
    }
    return Object.entries(keys).every(([key, expected]) => {
      const actual = context[key];
      const holds = (value: string) => list(expected).some((pattern) => test(pattern, value));
      if (set) return SET_OPERATORS[set](holds, actual === undefined ? undefined : list(actual));
      return typeof actual === 'string' && holds(actual);
    });
  });
}

function principalMatches(statement: PolicyStatement, caller: Caller, roleArn: (role: string) => string): boolean {
  if (statement.Principal === undefined) return true; // an identity policy: its principal is its role
  if (statement.Principal === '*') return true;
  if ('service' in caller) return list(statement.Principal.Service).includes(caller.service);
  return list(statement.Principal.AWS).some((principal) => principal === '*' || principal === roleArn(caller.role));
}

/** Whether a statement names the request's action and resource and its conditions hold, whoever its principal is. */
function coversRequest(statement: PolicyStatement, request: AccessRequest): boolean {
  const context = { 'aws:SecureTransport': 'true', ...request.context };
  return (
    list(statement.Action).some((action) => wildcard(action, request.action, true)) &&
    list(statement.Resource).some((resource) => wildcard(resource, request.resource)) &&
    conditionsHold(statement, context)
  );
}

function applies(statement: PolicyStatement, request: AccessRequest, roleArn: (role: string) => string): boolean {
  return coversRequest(statement, request) && principalMatches(statement, request.caller, roleArn);
}

export type AccessDecision = { allowed: true } | { allowed: false; reason: string };

/**
 * IAM as deployed, for one stack: each role's statements (AWS::IAM::Policy resources attached to
 * it, its inline policies, customer managed policies of the template) and the resource policies
 * (queue policies, bucket policies, Lambda permissions). An explicit Deny anywhere refuses; otherwise an Allow in the caller's role or
 * in the resource's policy grants; otherwise the call is refused, as IAM's implicit deny.
 * Not imitated: AWS managed policies (only logs and tracing, which no local service serves),
 * permission boundaries, SCPs and session policies.
 */
export function createAccessPolicies(stack: SynthesizedStack, resolve: (value: unknown) => unknown, roleArn: (role: string) => string) {
  const attachedTo = (roles: unknown, role: string) => list(roles as { Ref?: string }[]).some((entry) => entry?.Ref === role);
  const statementsOf = (document: unknown) => list((resolve(document) as { Statement?: PolicyStatement | PolicyStatement[] }).Statement);
  const identityCache = new Map<string, PolicyStatement[]>();

  function identityStatements(role: string): PolicyStatement[] {
    if (!identityCache.has(role)) {
      const roleProperties = stack.resources[role]?.Properties ?? {};
      const managed = new Set(list(roleProperties.ManagedPolicyArns as { Ref?: string }[]).map((arn) => arn?.Ref));
      identityCache.set(role, [
        ...resourcesOfType(stack, 'AWS::IAM::Policy')
          .filter(([, policy]) => attachedTo(policy.Properties?.Roles, role))
          .flatMap(([, policy]) => statementsOf(policy.Properties?.PolicyDocument)),
        ...resourcesOfType(stack, 'AWS::IAM::ManagedPolicy')
          .filter(([id, policy]) => managed.has(id) || attachedTo(policy.Properties?.Roles, role))
          .flatMap(([, policy]) => statementsOf(policy.Properties?.PolicyDocument)),
        ...list(roleProperties.Policies as { PolicyDocument: unknown }[]).flatMap((policy) => statementsOf(policy.PolicyDocument)),
      ]);
    }
    return identityCache.get(role)!;
  }

  /** Queue policies and Lambda permissions, as resource policies; read once the edge's URLs are known. */
  function readResourcePolicies(): { targets: string[]; statements: PolicyStatement[] }[] {
    const queuePolicies = resourcesOfType(stack, 'AWS::SQS::QueuePolicy').map(([, policy]) => ({
      targets: list(policy.Properties?.Queues).map((queue) => resolve(queue) as string),
      statements: statementsOf(policy.Properties?.PolicyDocument),
    }));
    const bucketPolicies = resourcesOfType(stack, 'AWS::S3::BucketPolicy').map(([, policy]) => ({
      targets: [resolve(policy.Properties?.Bucket) as string],
      statements: statementsOf(policy.Properties?.PolicyDocument),
    }));
    const permissions = resourcesOfType(stack, 'AWS::Lambda::Permission').map(([, permission]) => {
      const properties = resolve(permission.Properties ?? {}) as Record<string, string>;
      const principal = { [properties.Principal.includes('.') ? 'Service' : 'AWS']: properties.Principal };
      const condition: PolicyStatement['Condition'] = {
        ...(properties.SourceArn ? { ArnLike: { 'aws:SourceArn': properties.SourceArn } } : {}),
        ...(properties.SourceAccount ? { StringEquals: { 'aws:SourceAccount': properties.SourceAccount } } : {}),
      };
      const statement: PolicyStatement = { Effect: 'Allow', Action: properties.Action, Resource: '*', Principal: principal, Condition: condition };
      return { targets: [properties.FunctionName], statements: [statement] };
    });
    return [...queuePolicies, ...bucketPolicies, ...permissions];
  }
  /** Each target's policies, indexed at the first decision (the edge's URLs are known by then): the template does not change. */
  let policiesByTarget: Map<string, { statements: PolicyStatement[] }[]> | undefined;
  /** The resource policies of a resource known by any of `keys` (a queue's URL and ARN, a bucket's name, a function's name and ARN). */
  const resourceStatements = (keys: string[]) => {
    if (!policiesByTarget) {
      policiesByTarget = new Map();
      for (const policy of readResourcePolicies()) {
        for (const target of new Set(policy.targets)) policiesByTarget.set(target, [...(policiesByTarget.get(target) ?? []), policy]);
      }
    }
    const policies = new Set(keys.flatMap((key) => policiesByTarget!.get(key) ?? []));
    return [...policies].flatMap((policy) => policy.statements);
  };

  return {
    identityStatements,
    /**
     * KMS's rule ("Key policies in AWS KMS"): no IAM policy alone opens a key. A call is allowed
     * when the key policy allows the caller's role by name (or everyone), or allows the account
     * (its root, which delegates to IAM) and an identity policy of the role allows it too; an
     * explicit Deny in either refuses.
     */
    decideOnKey(request: AccessRequest & { caller: { role: string } }, keyPolicy: PolicyStatement[], account: string): AccessDecision {
      const roots = new Set([`arn:aws:iam::${account}:root`, account]);
      const principals = (statement: PolicyStatement) => (statement.Principal === '*' ? ['*'] : list(statement.Principal?.AWS));
      const onKey = keyPolicy.filter((statement) => coversRequest(statement, request));
      const forRole = onKey.filter((statement) => principals(statement).some((principal) => principal === '*' || principal === roleArn(request.caller.role)));
      const forAccount = onKey.filter((statement) => principals(statement).some((principal) => roots.has(principal)));
      const identity = identityStatements(request.caller.role).filter((statement) => applies(statement, request, roleArn));
      if ([...forRole, ...forAccount, ...identity].some((statement) => statement.Effect === 'Deny')) return { allowed: false, reason: `an explicit deny refuses ${request.action}` };
      if (forRole.some((statement) => statement.Effect === 'Allow')) return { allowed: true };
      if (!forAccount.some((statement) => statement.Effect === 'Allow')) return { allowed: false, reason: `no resource-based policy allows the ${request.action} action` };
      if (identity.some((statement) => statement.Effect === 'Allow')) return { allowed: true };
      return { allowed: false, reason: `no identity-based policy allows the ${request.action} action` };
    },
    decide(request: AccessRequest, resourceKeys: string[] = [request.resource]): AccessDecision {
      const identity = 'role' in request.caller ? identityStatements(request.caller.role) : [];
      const onResource = resourceStatements(resourceKeys);
      const matching = [...identity, ...onResource].filter((statement) => applies(statement, request, roleArn));
      if (matching.some((statement) => statement.Effect === 'Deny')) return { allowed: false, reason: `an explicit deny refuses ${request.action}` };
      if (matching.some((statement) => statement.Effect === 'Allow')) return { allowed: true };
      const who = 'role' in request.caller ? 'identity-based policy' : 'resource-based policy';
      return { allowed: false, reason: `no ${who} allows the ${request.action} action` };
    },
  };
}

export type AccessPolicies = ReturnType<typeof createAccessPolicies>;
