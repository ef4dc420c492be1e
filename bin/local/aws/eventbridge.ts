import { randomUUID } from 'node:crypto';
import { AWS_LIMITS, putEventsEntrySize } from '../../../shared/aws-limits';
import { logger } from '../../../shared/observability/logger';
import { AwsError } from './aws-error';
import { eventPattern } from './patterns';

export interface RuleTarget {
  arn: string;
  id: string;
}

export interface LocalRule {
  name: string;
  arn: string;
  /** The bus a pattern rule listens on (`default` when the template names none). */
  busName: string;
  matches?: (event: unknown) => boolean;
  /** `rate(…)` or `cron(…)`, for a schedule rule. */
  schedule?: string;
  targets: RuleTarget[];
}

/** What a rule hands its targets: the event as EventBridge delivers it. */
export interface BusEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: unknown;
}

interface PutEventsEntry {
  EventBusName?: string;
  Source?: string;
  DetailType?: string;
  Detail?: string;
  Resources?: string[];
  Time?: number | string;
}

/** Reads a rule of the template; targets that reshape the event are refused, not silently delivered whole. */
export function ruleOf(properties: Record<string, unknown>, name: string, arn: string, busName: string | undefined): LocalRule {
  const targets = (properties.Targets as Record<string, unknown>[] | undefined) ?? [];
  for (const target of targets) {
    const reshaping = ['Input', 'InputPath', 'InputTransformer'].filter((key) => key in target);
    if (reshaping.length > 0) throw new Error(`Rule ${name}: target ${target.Id} uses ${reshaping.join(', ')}, which the local AWS does not imitate`);
  }
  return {
    name,
    arn,
    busName: busName ?? 'default',
    matches: properties.EventPattern ? eventPattern(properties.EventPattern) : undefined,
    schedule: properties.ScheduleExpression as string | undefined,
    targets: targets.map((target) => ({ arn: target.Arn as string, id: target.Id as string })),
  };
}

/** The local event buses: PutEvents with AWS's limits, then each matching rule's targets. */
export function createLocalEventBridge(options: {
  region: string;
  account: string;
  buses: Map<string, string>;
  rules: LocalRule[];
  /** Hands an event to a rule's target; throwing is a failed delivery (logged, as EventBridge's FailedInvocations). */
  deliver(target: RuleTarget, event: BusEvent, rule: LocalRule): Promise<void>;
  /** Counts the events put (bin/local/usage.ts). */
  usage?: (events: number) => void;
}) {
  const busName = (nameOrArn: string | undefined) => (nameOrArn ?? 'default').replace(/^arn:aws:events:[^:]*:[^:]*:event-bus\//, '');
  const pending = new Set<Promise<void>>();

  /** EventBridge delivers after it has answered the caller. */
  function dispatch(rule: LocalRule, event: BusEvent) {
    for (const target of rule.targets) {
      const delivery = options
        .deliver(target, event, rule)
        .catch((error) => logger.error('local EventBridge: delivery to a rule target failed', { rule: rule.name, target: target.arn, error: (error as Error).message }))
        .finally(() => pending.delete(delivery));
      pending.add(delivery);
    }
  }

  const busEvent = (fields: Pick<BusEvent, 'detail-type' | 'source' | 'resources' | 'detail'>, time: Date): BusEvent => ({
    version: '0',
    id: randomUUID(),
    account: options.account,
    region: options.region,
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ...fields,
  });

  const scheduledEvent = (rule: LocalRule, at = new Date()) => busEvent({ 'detail-type': 'Scheduled Event', source: 'aws.events', resources: [rule.arn], detail: {} }, at);

  function rateRules(): { rule: LocalRule; periodMs: number }[] {
    return options.rules.flatMap((rule) => {
      if (!rule.schedule) return [];
      const rate = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(rule.schedule);
      if (!rate) {
        logger.warn('local AWS: only rate() schedules run locally', { rule: rule.name, schedule: rule.schedule });
        return [];
      }
      const unitMs = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[rate[2].replace(/s$/, '') as 'minute' | 'hour' | 'day'];
      return [{ rule, periodMs: Number(rate[1]) * unitMs }];
    });
  }

  return {
    /** Every `rate(…)` schedule rule fires now, once, its event's `time` `at` when given; resolves when its targets have run (tests need not wait a period). */
    async fireSchedules(at?: Date): Promise<void> {
      await Promise.all(rateRules().flatMap(({ rule }) => rule.targets.map((target) => options.deliver(target, scheduledEvent(rule, at), rule))));
    },

    /** The bus ARN each entry puts to, for the caller's access check before putEvents. */
    busArnsOf(request: { Entries?: PutEventsEntry[] }): string[] {
      return (request.Entries ?? []).map((entry) => options.buses.get(busName(entry.EventBusName)) ?? entry.EventBusName ?? 'default');
    },

    putEvents(request: { Entries?: PutEventsEntry[] }) {
      const entries = request.Entries ?? [];
      options.usage?.(entries.length);
      if (entries.length < 1 || entries.length > AWS_LIMITS.eventBridge.putEventsEntries) {
        throw new AwsError(
          'ValidationException',
          `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length less than or equal to ${AWS_LIMITS.eventBridge.putEventsEntries} and greater than or equal to 1`,
        );
      }
      const size = entries.reduce((sum, entry) => sum + putEventsEntrySize(entry), 0);
      if (size > AWS_LIMITS.eventBridge.putEventsBytes) throw new AwsError('ValidationException', 'Total size of the entries in the request is over the limit.');
      const results = entries.map((entry) => {
        const bus = busName(entry.EventBusName);
        if (!options.buses.has(bus)) return { ErrorCode: 'NotAuthorizedForSourceException', ErrorMessage: `Event bus ${bus} does not exist.` };
        if (!entry.Source || !entry.DetailType || !entry.Detail) return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter(s) Source, DetailType and Detail must be set.' };
        let detail: unknown;
        try {
          detail = JSON.parse(entry.Detail);
        } catch {
          detail = undefined;
        }
        if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
        const time = entry.Time === undefined ? new Date() : new Date(typeof entry.Time === 'number' ? entry.Time * 1000 : entry.Time);
        const event = busEvent({ 'detail-type': entry.DetailType, source: entry.Source, resources: entry.Resources ?? [], detail }, time);
        for (const rule of options.rules) if (rule.busName === bus && rule.matches?.(event)) dispatch(rule, event);
        return { EventId: event.id };
      });
      return { FailedEntryCount: results.filter((result) => 'ErrorCode' in result).length, Entries: results };
    },

    /** Runs each `rate(…)` schedule rule's targets on its period until stopped; other schedules are reported, not run. */
    startSchedules(): () => Promise<void> {
      const timers: NodeJS.Timeout[] = [];
      for (const { rule, periodMs } of rateRules()) timers.push(setInterval(() => dispatch(rule, scheduledEvent(rule)), periodMs));
      return async () => {
        for (const timer of timers) clearInterval(timer);
        await Promise.all(pending);
      };
    },
  };
}

export type LocalEventBridge = ReturnType<typeof createLocalEventBridge>;
