import * as z from '../zod';
import type { Mode } from '../auth/principal';
import { BusinessRuleError } from '../errors';
import { statusFamily } from '../events';
import { ListQuery, pageSchema } from '../pagination';
import { DatetimeSchema, instantNanos, isoMillis } from '../time';
import { datetimeInput } from './inputs';

/**
 * Reports (product-decisions §18): a CSV of one list (payments, refunds, chargebacks or balance
 * transactions) over a creation range, built away from the request by a function of its own
 * (docs/architecture.md, "Reports"), kept REPORT_RETENTION_DAYS in the documents' bucket and
 * handed out as a presigned GET of REPORT_URL_SECONDS.
 */

export const REPORT_TYPES = ['payments', 'refunds', 'chargebacks', 'balance_transactions'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const REPORT_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** The longest creation range a report covers (§18). */
export const REPORT_MAX_DAYS = 366;
/** How long a report's download URL works (§18). */
export const REPORT_URL_SECONDS = 3600;
/** How long a report's file is kept (§18): the bucket's lifecycle rule on REPORT_PREFIX (lib/documents.ts). */
export const REPORT_RETENTION_DAYS = 30;
/** Where the report files live in the documents' bucket, and all a function's report grant names. */
export const REPORT_PREFIX = 'reports/';

/** The builder's timeout (lib/payment-ops-stack.ts): Lambda's most; a million rows take a small part of it (docs/benchmarks.md). */
export const REPORT_BUILDER_TIMEOUT_MINUTES = 15;
/** Lambda's retries of the builder's asynchronous invocation (its EventInvokeConfig): Lambda's default, stated. */
export const REPORT_BUILDER_RETRIES = 2;
/**
 * How long after it was asked for a report may still be pending: past it, the minute job
 * `fail-overdue-reports` fails it (docs/architecture.md, "Reports"). The builder's worst case
 * is 48 minutes from the event reaching Lambda: three attempts each to its 15-minute timeout,
 * with Lambda's waits of one and two minutes between them; and Lambda drops the event rather
 * than start an attempt that could end after the deadline (REPORT_BUILDER_MAX_EVENT_AGE_MINUTES).
 */
export const REPORT_BUILD_DEADLINE_MINUTES = 60;
/**
 * The oldest an event of the builder may be when Lambda starts an attempt with it: the last
 * attempt ends 5 minutes before the deadline, room for the request's way to Lambda (the
 * table stream, the outbox processor, the bus: seconds). Three attempts need 33 minutes.
 */
export const REPORT_BUILDER_MAX_EVENT_AGE_MINUTES = REPORT_BUILD_DEADLINE_MINUTES - REPORT_BUILDER_TIMEOUT_MINUTES - 5;

/** When a pending report is given up on: REPORT_BUILD_DEADLINE_MINUTES after it was asked for. */
export const reportBuildDeadline = (report: Pick<Report, 'createdAt'>) => isoMillis(Date.parse(report.createdAt) + REPORT_BUILD_DEADLINE_MINUTES * 60_000);

/** A report as stored: who asked (its scope, and an acceptor-bound key's acceptor, whose chargebacks alone it sees: §3), what, and how it went. */
export interface Report {
  id: string;
  orgId: string;
  mode: Mode;
  /** The acceptor of the acceptor-bound key that asked: its chargebacks are the report's, as its list's are (§3). */
  acceptorId?: string;
  type: ReportType;
  /** The creation range as given, to the millisecond: from `gte` (inclusive) to `lt` (exclusive). */
  created: { gte: string; lt: string };
  status: ReportStatus;
  rowCount?: number;
  /** The file's key in the bucket, once written. */
  objectKey?: string;
  failureReason?: string;
  createdAt: string;
  completedAt?: string;
}

/** The file of a report: one per report, under the prefix its grants name. */
export const reportObjectKey = (report: Pick<Report, 'id' | 'orgId' | 'mode'>) => `${REPORT_PREFIX}${report.orgId}/${report.mode}/${report.id}.csv`;

// --- input ------------------------------------------------------------------------------------

export const createReportBody = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      type: z.withMeta(z.enum(REPORT_TYPES), { description: 'The list the report holds: its rows are what that list returns for the range, newest first.' }),
      created: z.withMeta(
        z.strictObject({
          gte: z.withMeta(datetimeInput, { description: 'The first instant of the range (inclusive).' }),
          lt: z.withMeta(datetimeInput, { description: `The end of the range (exclusive): after \`gte\`, at most ${REPORT_MAX_DAYS} days later.` }),
        }),
        { description: 'The creation range of the objects the report holds.' },
      ),
    }),
    { id: 'CreateReportBody' },
  ))();
export type CreateReportBody = z.infer<typeof createReportBody>;

const DAY_NANOS = 86_400_000_000_000n;

/**
 * The range of a report as stored, to the millisecond (a datetime between two is bounded by the
 * later one, as the lists bound it: ids count milliseconds): a range that does not end after it
 * starts, or spans more than REPORT_MAX_DAYS, is a 422 at `created.lt`.
 */
export function reportRange(created: CreateReportBody['created']): Report['created'] {
  const span = instantNanos(created.lt) - instantNanos(created.gte);
  if (span <= 0n) throw new BusinessRuleError('created.lt must be later than created.gte', 'created.lt');
  if (span > BigInt(REPORT_MAX_DAYS) * DAY_NANOS) throw new BusinessRuleError(`A report covers at most ${REPORT_MAX_DAYS} days`, 'created.lt');
  const millis = (value: string) => isoMillis(Number((instantNanos(value) + 999_999n) / 1_000_000n));
  return { gte: millis(created.gte), lt: millis(created.lt) };
}

/** The report lists' query: the list rules alone. */
export const listReportsQuery = ListQuery;

// --- output -----------------------------------------------------------------------------------

export const ReportSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      id: z.withMeta(z.string(), { description: 'Prefix `rpt_`.' }),
      object: z.literal('report'),
      type: z.enum(REPORT_TYPES),
      created: z.strictObject({ gte: DatetimeSchema, lt: DatetimeSchema }),
      status: z.withMeta(z.enum(REPORT_STATUSES), { description: '`pending` until the file is written, then `succeeded`, or `failed` (`failure_reason` says why).' }),
      row_count: z.withMeta(z.nullable(z.number()), { description: 'The rows of the file (the header row aside); null until it succeeded.' }),
      url: z.withMeta(z.nullable(z.string()), {
        description: `A succeeded report's CSV: a presigned download, valid ${REPORT_URL_SECONDS / 60} minutes from this answer (a new one with each GET); null otherwise, and in events.`,
      }),
      expires_at: z.withMeta(z.nullable(DatetimeSchema), { description: 'When `url` stops working; null with it.' }),
      failure_reason: z.withMeta(z.nullable(z.string()), { description: 'Why a `failed` report failed; null otherwise.' }),
      created_at: DatetimeSchema,
    }),
    {
      id: 'Report',
      description:
        `A CSV of one list over a creation range (UTF-8, a header row, one row per object with its API fields, nested ones as \`a.b\` columns), ` +
        `kept ${REPORT_RETENTION_DAYS} days.`,
    },
  ))();
export type ReportResource = z.infer<typeof ReportSchema>;

export const ReportListSchema = /* @__PURE__ */ (() => pageSchema(ReportSchema, 'ReportList', 'A page of reports, newest first.'))();

/** The report object; `download` is a succeeded report's presigned URL, when the caller made one. */
export function reportResource(report: Report, download?: { url: string; expiresAt: string }): ReportResource {
  return {
    id: report.id,
    object: 'report',
    type: report.type,
    created: report.created,
    status: report.status,
    row_count: report.rowCount ?? null,
    url: download?.url ?? null,
    expires_at: download?.expiresAt ?? null,
    failure_reason: report.failureReason ?? null,
    created_at: report.createdAt,
  };
}

/** The report's events: the report object, without a download URL (a URL is a credential, §1: GET the report for one). */
export const REPORT_EVENTS = /* @__PURE__ */ statusFamily('transactions.report.', ['succeeded', 'failed'] as const, ReportSchema, (status) =>
  status === 'succeeded' ? 'A report\'s file is ready: `GET /v1/reports/{id}` gives its download URL.' : 'A report could not be built; `failure_reason` says why.',
);

export const REPORT_EVENT = { succeeded: 'transactions.report.succeeded', failed: 'transactions.report.failed' } as const;

/** The one sentence a failed report gives, whatever broke (the cause goes to the log, never to the merchant). */
export const REPORT_FAILURE_REASON = 'The report could not be built; create it again.';

// --- ports ------------------------------------------------------------------------------------

/** Port: one report's file as it is written, in order; nothing is readable before `finish`. */
export interface ReportFileWriter {
  write(text: string): Promise<void>;
  finish(): Promise<void>;
  /** Drops what was written (a failed build): no file is left behind. */
  abort(): Promise<void>;
}

/** Port: where report files are kept (shared/storage/s3-reports.ts). */
export interface ReportFiles {
  open(objectKey: string, fileName: string): Promise<ReportFileWriter>;
  /** A download of the file that works `seconds` from `now`. */
  presignDownload(objectKey: string, seconds: number, now: Date): Promise<{ url: string; expiresAt: string }>;
}
