import { createHash } from 'node:crypto';

/**
 * Faults the local stack injects, off by default (docs/architecture.md, "Faults"): one setting,
 * `FAULTS`, a JSON plan of rates per kind and a seed, read by every part that breaks the way AWS
 * and Adyen break. A plan may also bound how many of a kind happen (`limits`) and on what
 * (`only`: DynamoDB operations, function names, Adyen operations or endpoint URLs, as the kind
 * says) and when (`after`: the chances to let pass first), so that a test breaks one chosen thing
 * once.
 *
 *   FAULTS='{"seed":7,"rates":{"dynamodb.throttling":0.02,"lambda.kill":0.005}}' npm start
 */
export const FAULT_KINDS = [
  /** DynamoDB refuses a request: ProvisionedThroughputExceededException (a transaction: its cancellation reason). */
  'dynamodb.provisioned-throughput',
  /** DynamoDB refuses a request: ThrottlingException (a transaction: ThrottlingError). */
  'dynamodb.throttling',
  /** DynamoDB answers 500 InternalServerError; nothing was written. */
  'dynamodb.internal-error',
  /** A write commits, and its answer never reaches the client (the connection drops). */
  'dynamodb.lost-answer',
  /** A function's execution environment dies in the middle of an invocation (Runtime.ExitError). */
  'lambda.kill',
  /** An invocation stops making progress and runs to its timeout (Sandbox.Timedout). */
  'lambda.timeout',
  /** A table stream batch is handed to its function again after it succeeded. */
  'stream.redelivery',
  /** An SQS message is delivered again after its batch succeeded. */
  'sqs.redelivery',
  /** The local Adyen answers an API request 500, having done nothing. */
  'adyen.error',
  /** The local Adyen does what it is asked and answers too late for the caller. */
  'adyen.timeout',
  /** The local Adyen sends a notification twice. */
  'adyen.duplicate-notification',
  /** The local Adyen holds a notification back until after the next one. */
  'adyen.reordered-notification',
  /** A webhook receiver answers 500. */
  'receiver.failure',
  /** A webhook receiver never answers. */
  'receiver.hang',
  /** The whole stack stops and starts again in the middle of a run. */
  'stack.restart',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultPlan {
  seed: number;
  /** The chance (0..1) of each kind wherever it can happen. */
  rates: Partial<Record<FaultKind, number>>;
  /** At most this many of a kind. */
  limits?: Partial<Record<FaultKind, number>>;
  /** Only where one of these names matches (exactly, or as the start of a function's name). */
  only?: Partial<Record<FaultKind, string[]>>;
  /** Not before this many of a kind's chances have passed (a fault that strikes a retry, not the first try). */
  after?: Partial<Record<FaultKind, number>>;
}

export const FAULTS_VARIABLE = 'FAULTS';

/** The plan of `FAULTS`, checked: undefined when unset. */
export function faultPlanFrom(env: NodeJS.ProcessEnv = process.env): FaultPlan | undefined {
  const value = env[FAULTS_VARIABLE];
  if (value === undefined || value === '') return undefined;
  let plan: FaultPlan;
  try {
    plan = JSON.parse(value) as FaultPlan;
  } catch {
    throw new Error(`${FAULTS_VARIABLE} must be JSON: {"seed": n, "rates": {"<kind>": 0..1}}`);
  }
  return checkedPlan(plan);
}

/** A plan as given, checked: every kind known, every rate within 0..1, a whole seed. */
export function checkedPlan(plan: FaultPlan): FaultPlan {
  if (!Number.isInteger(plan.seed)) throw new Error(`${FAULTS_VARIABLE}: seed must be a whole number`);
  for (const part of [plan.rates, plan.limits ?? {}, plan.only ?? {}, plan.after ?? {}]) {
    for (const kind of Object.keys(part)) if (!(FAULT_KINDS as readonly string[]).includes(kind)) throw new Error(`${FAULTS_VARIABLE}: unknown fault kind ${kind} (known: ${FAULT_KINDS.join(', ')})`);
  }
  for (const [kind, rate] of Object.entries(plan.rates)) {
    if (typeof rate !== 'number' || rate < 0 || rate > 1) throw new Error(`${FAULTS_VARIABLE}: the rate of ${kind} must be within 0..1`);
  }
  return plan;
}

/** A small seeded generator (mulberry32): the same seed, the same faults, in the same order of draws. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface Faults {
  /** Whether a fault of `kind` strikes here (`on`: the operation, function or endpoint it would strike); counted when it does. */
  strikes(kind: FaultKind, on?: string): boolean;
  /** A number in 0..1 from the plan's generator: where in an invocation a kill lands. */
  draw(): number;
  /** Faults injected so far, by kind, under every plan this part had. */
  injected(): Partial<Record<FaultKind, number>>;
  /** Another plan from now on (none: no more faults), as a run turns its faults off for its quiet period; a kind's `limits` count afresh. */
  replan(plan: FaultPlan | undefined): void;
}

/** No faults, ever: for a part built outside a stack. */
export const NO_FAULTS: Faults = { strikes: () => false, draw: () => 0, injected: () => ({}), replan: () => {} };

/**
 * The faults of one part of the stack (`part` names it, so that each part draws from a sequence
 * of its own, the same in every run of a seed).
 */
export function faultsOf(initial: FaultPlan | undefined, part: string): Faults {
  const counts: Partial<Record<FaultKind, number>> = {};
  let plan: FaultPlan | undefined;
  let sincePlan: Partial<Record<FaultKind, number>> = {};
  let chances: Partial<Record<FaultKind, number>> = {};
  let random: () => number = () => 1;
  const replan = (next: FaultPlan | undefined) => {
    plan = next && checkedPlan(next);
    sincePlan = {};
    chances = {};
    random = plan ? seeded(plan.seed ^ createHash('sha256').update(part).digest().readUInt32LE(0)) : () => 1;
  };
  replan(initial);
  const applies = (kind: FaultKind, on: string | undefined) => {
    const only = plan?.only?.[kind];
    return !only || (on !== undefined && only.some((name) => on === name || on.startsWith(name)));
  };
  return {
    strikes(kind, on) {
      const rate = plan?.rates[kind] ?? 0;
      if (rate === 0 || !applies(kind, on)) return false;
      chances[kind] = (chances[kind] ?? 0) + 1;
      if (chances[kind]! <= (plan?.after?.[kind] ?? 0)) return false;
      if ((sincePlan[kind] ?? 0) >= (plan?.limits?.[kind] ?? Infinity)) return false;
      if (random() >= rate) return false;
      counts[kind] = (counts[kind] ?? 0) + 1;
      sincePlan[kind] = (sincePlan[kind] ?? 0) + 1;
      return true;
    },
    draw: () => random(),
    injected: () => ({ ...counts }),
    replan,
  };
}

/** Counts by kind, added up (the parts of a stack, or of a run). */
export function addCounts<Kind extends string = FaultKind>(...counts: Partial<Record<Kind, number>>[]): Partial<Record<Kind, number>> {
  const total: Partial<Record<Kind, number>> = {};
  for (const part of counts) for (const [kind, count] of Object.entries(part) as [Kind, number][]) total[kind] = (total[kind] ?? 0) + count;
  return total;
}
