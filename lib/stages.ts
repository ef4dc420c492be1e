import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';
import { LIMITS } from '../shared/limits';
import { metricsNamespace } from '../shared/observability/catalog';

/** API Gateway's token bucket for one route: requests a second, steady, and the bucket's size. */
export interface Throttle {
  rateLimit: number;
  burstLimit: number;
}

/**
 * Everything that differs between two deployments of the service (docs/operations.md,
 * "Deploying a new stage"). The infrastructure team edits this file; nothing else in `lib/`
 * names an account, a domain or an address.
 */
export interface StageSettings {
  /**
   * Where the stack deploys. None for the local stage: `cdk deploy` of it goes to the account
   * and region of the CLI's credentials (a developer's sandbox), and `npm start` runs it with
   * the local AWS's own.
   */
  env?: { account: string; region: string };
  /**
   * The stage's public name: API Gateway's custom domain with a certificate validated in the
   * hosted zone, and its alias record there. The service's URLs (`base_url`, checkout, dashboard,
   * docs), the documents' CORS origin and the acquirer's notification URL are under it. The
   * zone is named, not looked up, so that a synth needs no credentials. None: the API's own
   * execute-api URL (the local stage).
   */
  domain?: { name: string; hostedZoneId: string; zoneName: string };
  /** Who is told when an alarm goes off and when it is back to OK: addresses and HTTPS endpoints (an on-call service's) subscribed to the stage's alarm topic. */
  alarmSubscriptions: { emails: string[]; urls: string[] };
  /**
   * API Gateway's throttles, each route with a bucket of its own: the customer checkout's
   * routes, the acquirer's notification route, and every other route (the API, the dashboard,
   * the reference), so that a flood on one never spends another's.
   */
  throttles: { checkout: Throttle; acquirerNotifications: Throttle; api: Throttle };
  /**
   * Lambda concurrency: reserved for each table-stream processor (the outbox, the acquirer's
   * notifications), so that a burst of requests cannot starve the money's bookkeeping; and the
   * most the webhook queue's mapping may use at once, so that slow merchant endpoints cannot
   * take the account's concurrency from the API.
   */
  concurrency: { streamProcessors: number; webhookDeliveries: number };
  logRetention: RetentionDays;
  /** AWS Backup of the table besides its point-in-time recovery (35 days): kept this many days. None: no plan. */
  backup?: { dailyRetentionDays: number; monthlyRetentionDays?: number };
  /** The money paths (checkout submit, notification processing, the outbox processor) deploy through CodeDeploy: 10 % for 5 minutes, rolled back on their alarms. */
  canary: boolean;
  /**
   * X-Ray active tracing of every function (each invocation and its init, docs/operations.md
   * "Traces"), with the write grant it needs. Off where nobody reads traces: the local stage,
   * which `npm start` runs without X-Ray and a sandbox deploy does not need.
   */
  tracing: boolean;
  /** The address the service's mail will come from: an SES identity for its domain, which must be the stage's hosted zone (DKIM records made there). */
  email?: { sender: string };
}

/**
 * Where the alarms' runbooks are read: docs/operations.md of the repository the stages deploy
 * from (the operator's guide is not served by the service, whose `/docs` is the merchants'
 * reference). Each alarm links its section: `<RUNBOOKS_URL>#<alarm>`.
 */
export const RUNBOOKS_URL = 'https://git.example.com/payments/payment-operations/-/blob/main/docs/operations.md';

/** The end of an alarm's description: its runbook, the section of docs/operations.md named after it. */
export const runbookOf = (alarm: string) => `Runbook: ${RUNBOOKS_URL}#${alarm.toLowerCase()}`;

/** The API's throttle of each route in every stage: the one the merchants' reference states (shared/limits.ts, the 429's documentation). */
const API_THROTTLE: Throttle = { rateLimit: LIMITS.stageThrottle.requestsPerSecond, burstLimit: LIMITS.stageThrottle.burst };

/**
 * The stages. `local` is the one `npm start`, the tests and `cdk synth` without `-c stage`
 * synthesize; `staging` and `prod` are examples to edit (example.com, AWS's documentation
 * accounts): replace the accounts, zones and addresses with yours before the first deploy.
 */
export const STAGES = {
  local: {
    alarmSubscriptions: { emails: [], urls: [] },
    throttles: { checkout: API_THROTTLE, acquirerNotifications: API_THROTTLE, api: API_THROTTLE },
    concurrency: { streamProcessors: 5, webhookDeliveries: 5 },
    logRetention: RetentionDays.ONE_WEEK,
    canary: false,
    tracing: false,
  },
  staging: {
    env: { account: '111122223333', region: 'eu-west-1' },
    domain: { name: 'pay.staging.example.com', hostedZoneId: 'Z0000000000000STAGING', zoneName: 'staging.example.com' },
    alarmSubscriptions: { emails: ['payments-staging-alerts@example.com'], urls: [] },
    throttles: {
      checkout: { rateLimit: 50, burstLimit: 100 },
      acquirerNotifications: { rateLimit: 20, burstLimit: 40 },
      api: API_THROTTLE,
    },
    concurrency: { streamProcessors: 5, webhookDeliveries: 10 },
    logRetention: RetentionDays.ONE_MONTH,
    backup: { dailyRetentionDays: 7 },
    canary: false,
    tracing: true,
    email: { sender: 'payments@staging.example.com' },
  },
  prod: {
    env: { account: '444455556666', region: 'eu-west-1' },
    domain: { name: 'pay.example.com', hostedZoneId: 'Z00000000000000000PROD', zoneName: 'example.com' },
    alarmSubscriptions: { emails: ['payments-oncall@example.com'], urls: ['https://events.oncall.example.com/integrations/cloudwatch/EXAMPLE'] },
    throttles: {
      checkout: { rateLimit: 500, burstLimit: 1000 },
      acquirerNotifications: { rateLimit: 100, burstLimit: 200 },
      api: API_THROTTLE,
    },
    concurrency: { streamProcessors: 20, webhookDeliveries: 50 },
    logRetention: RetentionDays.THREE_MONTHS,
    backup: { dailyRetentionDays: 35, monthlyRetentionDays: 365 },
    canary: true,
    tracing: true,
    email: { sender: 'payments@example.com' },
  },
} satisfies Record<string, StageSettings>;

export type StageName = keyof typeof STAGES;

/** The stage of a synth without `-c stage=…`: the local one. */
export const DEFAULT_STAGE: StageName = 'local';

/** The CDK context key naming the stage (`cdk deploy -c stage=prod`). */
export const STAGE_CONTEXT = 'stage';

export interface Stage extends StageSettings {
  name: StageName;
  /** `PaymentOperations-<stage>`: the CloudFormation stack, so that stages sit side by side in one account. */
  stackName: string;
  /** Where the stage's functions emit their metrics, and its alarms and dashboard read them. */
  metricsNamespace: string;
}

const isStageName = (name: string): name is StageName => Object.hasOwn(STAGES, name);

/** A stage by name; an unknown name is an error that lists the known ones. */
export function stageNamed(name: string): Stage {
  if (!isStageName(name)) throw new Error(`No stage ${JSON.stringify(name)} in lib/stages.ts; the stages are ${Object.keys(STAGES).join(', ')}`);
  const settings: StageSettings = STAGES[name];
  if (settings.email && settings.domain && !settings.email.sender.endsWith(`@${settings.domain.zoneName}`)) {
    throw new Error(`Stage ${name}: the sender ${settings.email.sender} must be of the hosted zone ${settings.domain.zoneName}, where its DKIM records are made`);
  }
  if (settings.email && !settings.domain) throw new Error(`Stage ${name}: a sender needs the stage's hosted zone (domain), where its DKIM records are made`);
  return { ...settings, name, stackName: `PaymentOperations-${name}`, metricsNamespace: metricsNamespace(name) };
}

/** The stage a construct is synthesized for: the app's `stage` context, else the local stage. */
export function stageOf(scope: IConstruct): Stage {
  const name: unknown = scope.node.tryGetContext(STAGE_CONTEXT) ?? DEFAULT_STAGE;
  return stageNamed(String(name));
}
