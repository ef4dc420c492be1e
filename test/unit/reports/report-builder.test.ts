import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { AWS_LIMITS } from '../../../shared/aws-limits';
import { csvField, toCsv } from '../../../shared/csv';
import type { Payment } from '../../../shared/domain/payments';
import type { Report } from '../../../shared/domain/reports';
import type { OutboxEvent } from '../../../shared/events';
import { newId } from '../../../shared/ids';
import { s3ReportFiles } from '../../../shared/storage/s3-reports';
import { buildReport, type ReportBuildPorts } from '../../../shared/use-cases/reports';

const urls = { base: 'https://api.example.com', checkout: 'https://api.example.com/checkout', dashboard: 'https://api.example.com/dashboard', docs: 'https://api.example.com/docs' };

function pendingReport(): Report {
  return { id: newId('report'), orgId: 'org_1', mode: 'test', type: 'payments', created: { gte: '2026-01-01T00:00:00.000Z', lt: '2026-02-01T00:00:00.000Z' }, status: 'pending', createdAt: '2026-02-01T00:00:00.000Z' };
}

function payment(n: number): Payment {
  return {
    id: newId('payment'),
    orgId: 'org_1',
    mode: 'test',
    acceptorId: 'acceptor_1',
    paymentLinkId: 'pl_1',
    status: 'paid',
    amountMinor: 1000 + n,
    currency: 'EUR',
    createdAt: '2026-01-15T10:00:00.000Z',
    paidAt: '2026-01-15T10:00:01.000Z',
    customer: { email: `customer-${n}@example.com` },
  };
}

describe('Function: buildReport', () => {
  const s3 = mockClient(S3Client);
  beforeEach(() => {
    s3.reset();
    s3.on(CreateMultipartUploadCommand).resolves({ UploadId: 'upload-1' });
    s3.on(UploadPartCommand).callsFake((input: { PartNumber: number }) => ({ ETag: `"etag-${input.PartNumber}"` }));
    s3.on(CompleteMultipartUploadCommand).resolves({});
  });

  test('streams the rows: the file goes to S3 part by part as it fills, never holding a part more than it uploaded, whatever the row count', async () => {
    // Prepare: rows enough for a little more than 2 parts of 5 MiB, each asked for after the last was written.
    const report = pendingReport();
    const rows = 60_000;
    const uploadedWhenAsked: number[] = [];
    const uploadedBytes = () => s3.commandCalls(UploadPartCommand).reduce((sum, call) => sum + (call.args[0].input.Body as Buffer).length, 0);
    let finished: { report: Report; event: OutboxEvent } | undefined;
    const ports: ReportBuildPorts = {
      reports: { get: async () => report, finish: async (done, event) => ((finished = { report: done, event }), true) },
      files: s3ReportFiles(new S3Client({ region: 'eu-west-1' }), 'bucket'),
      sources: {
        payments: async function* () {
          for (let n = 0; n < rows; n++) {
            uploadedWhenAsked.push(uploadedBytes());
            yield payment(n);
          }
        },
        refunds: async function* () {},
        chargebacks: async function* () {},
        balance_transactions: async function* () {},
      },
      urls,
      now: () => new Date('2026-02-01T00:00:05.000Z'),
    };
    // Act
    await buildReport(ports, report.id);
    // Assess: every part but the last at least S3's least; the parts make the file.
    const parts = s3.commandCalls(UploadPartCommand).map((call) => call.args[0].input.Body as Buffer);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    expect(parts.slice(0, -1).every((part) => part.length >= AWS_LIMITS.s3.minPartBytes)).toBe(true);
    const file = Buffer.concat(parts).toString('utf8');
    const lines = file.split('\r\n');
    expect(lines).toHaveLength(rows + 2);
    // When row n was asked for, what was written before it (its offset in the file) less what S3 had was under a part.
    let offset = Buffer.byteLength(`${lines[0]}\r\n`);
    for (let n = 0; n < rows; n++) {
      expect(offset - uploadedWhenAsked[n]).toBeLessThan(AWS_LIMITS.s3.minPartBytes);
      offset += Buffer.byteLength(`${lines[n + 1]}\r\n`);
    }
    expect(s3.commandCalls(CompleteMultipartUploadCommand)[0].args[0].input.MultipartUpload!.Parts).toEqual(parts.map((_, index) => ({ PartNumber: index + 1, ETag: `"etag-${index + 1}"` })));
    expect(finished!.report).toMatchObject({ status: 'succeeded', rowCount: rows, objectKey: `reports/org_1/test/${report.id}.csv` });
    expect(finished!.event.envelope).toMatchObject({ type: 'transactions.report.succeeded', data: { id: report.id, status: 'succeeded', row_count: rows, url: null } });
  });

  test('a list that fails mid-way: the upload is aborted and the report failed with its reason and event', async () => {
    const report = pendingReport();
    let finished: Report | undefined;
    const ports: ReportBuildPorts = {
      reports: { get: async () => report, finish: async (done) => ((finished = done), true) },
      files: s3ReportFiles(new S3Client({ region: 'eu-west-1' }), 'bucket'),
      sources: {
        payments: async function* () {
          yield payment(1);
          throw new Error('ProvisionedThroughputExceededException');
        },
        refunds: async function* () {},
        chargebacks: async function* () {},
        balance_transactions: async function* () {},
      },
      urls,
      now: () => new Date(),
    };
    await buildReport(ports, report.id);
    expect(s3.commandCalls(CompleteMultipartUploadCommand)).toHaveLength(0);
    expect(s3.send.getCalls().some((call) => call.args[0].constructor.name === 'AbortMultipartUploadCommand')).toBe(true);
    expect(finished).toMatchObject({ status: 'failed', failureReason: 'The report could not be built; create it again.' });
    expect(JSON.stringify(finished)).not.toContain('ProvisionedThroughput');
  });
});

describe('Function: csvField (the settlement CSV and the reports)', () => {
  test('formula-safe: a cell starting with =, +, -, @, a tab or a carriage return gets a leading apostrophe', () => {
    expect(['=1+2', '+33 1 00', '-A1', '@SUM(A1)', '\tx', '\rx'].map(csvField)).toEqual(["'=1+2", "'+33 1 00", "'-A1", "'@SUM(A1)", "'\tx", `"'\rx"`]);
  });

  test('a number, even signed, is no formula and stays as it is; other cells are RFC 4180', () => {
    expect(['-12.50', '+3', '12.50', '0'].map(csvField)).toEqual(['-12.50', '+3', '12.50', '0']);
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(toCsv([['a,b', 'c']])).toBe('"a,b",c\r\n');
  });
});
