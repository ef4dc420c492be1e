import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, type CfnBucket } from 'aws-cdk-lib/aws-s3';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { DocumentAccess, ReportFileAccess } from '../shared/api/operation';
import { REPORT_PREFIX, REPORT_RETENTION_DAYS } from '../shared/domain/reports';
import { DOCUMENT_PREFIX, DOCUMENT_UPLOAD_CORS } from '../shared/domain/dispute-documents';
import { resourceFinding } from './nag-findings';

/** product-decisions §13: evidence documents are kept 2 years. */
export const DOCUMENT_RETENTION_DAYS = 730;

/**
 * The evidence documents' bucket (product-decisions §13, docs/operations.md#evidence-documents):
 * private (every public access blocked, no ACLs), encrypted with S3-managed keys (SSE-S3),
 * TLS only, versioned so that an upload over a document keeps the first one, every version
 * expired after 2 years, server access logs in a bucket of their own. It also keeps the report
 * files (product-decisions §18) under their prefix, for 30 days. Merchants' browsers upload
 * with presigned URLs from the dashboard's origin (CORS). Functions reach it only through
 * `grant`: nothing else in the stack may.
 */
export class EvidenceDocuments extends Construct {
  readonly bucket: Bucket;

  constructor(scope: Construct, id: string, props: { dashboardOrigin: string }) {
    super(scope, id);
    const accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [{ expiration: Duration.days(DOCUMENT_RETENTION_DAYS) }],
    });
    NagSuppressions.addResourceSuppressions(accessLogs, [
      { id: 'AwsSolutions-S1', reason: `Bucket ${accessLogs.node.path} holds the server access logs of the evidence documents' bucket; logging it into itself or a third bucket adds nothing.` },
    ]);
    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: true,
      removalPolicy: RemovalPolicy.RETAIN,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'documents/',
      lifecycleRules: [
        {
          expiration: Duration.days(DOCUMENT_RETENTION_DAYS),
          // A version overwritten by a later upload (within its URL's 15 minutes) is kept as long
          // as a document is; so is the version the expiration above leaves behind its delete marker.
          noncurrentVersionExpiration: Duration.days(DOCUMENT_RETENTION_DAYS),
        },
        {
          // Report files (product-decisions §18) are kept 30 days, and gone then: the version
          // the expiration leaves behind its delete marker goes a day later, as does an upload
          // its builder started and never finished (it died mid-way).
          id: 'ReportFiles',
          prefix: REPORT_PREFIX,
          expiration: Duration.days(REPORT_RETENTION_DAYS),
          noncurrentVersionExpiration: Duration.days(1),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      cors: [
        {
          allowedOrigins: [props.dashboardOrigin],
          allowedMethods: DOCUMENT_UPLOAD_CORS.methods.map((method) => HttpMethods[method]),
          allowedHeaders: [...DOCUMENT_UPLOAD_CORS.headers],
          maxAge: DOCUMENT_UPLOAD_CORS.maxAgeSeconds,
        },
      ],
    });
  }

  /**
   * The least a function needs: `upload` signs uploads, which S3 checks against the signer's
   * s3:PutObject under the documents' prefix; `read` checks (HeadObject) and reads (GetObject,
   * of a version) them there, and may list the bucket, without which S3 answers a missing object
   * with 403 rather than 404.
   */
  /**
   * The report files' grants, on their prefix only: `write` uploads them (s3:PutObject, which S3
   * checks for each call of a multipart upload, and s3:AbortMultipartUpload for a failed one),
   * `read` signs their downloads (s3:GetObject, checked against the signer when the URL is used).
   */
  grantReportFiles(grantee: LambdaFunction, access: ReportFileAccess): void {
    const actions = access === 'write' ? ['s3:PutObject', 's3:AbortMultipartUpload'] : ['s3:GetObject'];
    grantee.grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions, resources: [this.bucket.arnForObjects(`${REPORT_PREFIX}*`)] }));
    NagSuppressions.addResourceSuppressions(
      grantee.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: `Function ${grantee.node.scope!.node.id} ${access === 'write' ? 'writes' : 'signs downloads of'} report files, each its own object under ${REPORT_PREFIX} in bucket ${this.bucket.node.path}, and nothing else of it.`,
          appliesTo: [resourceFinding(this.bucket.node.defaultChild as CfnBucket, `/${REPORT_PREFIX}*`)],
        },
      ],
      true,
    );
  }

  grant(grantee: LambdaFunction, access: Exclude<DocumentAccess, 'origin'>): void {
    const objects = this.bucket.arnForObjects(`${DOCUMENT_PREFIX}*`);
    const statements =
      access === 'upload'
        ? [new PolicyStatement({ actions: ['s3:PutObject'], resources: [objects] })]
        : [
            new PolicyStatement({ actions: ['s3:GetObject', 's3:GetObjectVersion'], resources: [objects] }),
            new PolicyStatement({ actions: ['s3:ListBucket'], resources: [this.bucket.bucketArn] }),
          ];
    for (const statement of statements) grantee.grantPrincipal.addToPrincipalPolicy(statement);
    // On the role, whose policy holds the grant.
    NagSuppressions.addResourceSuppressions(
      grantee.role!,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: `Function ${grantee.node.scope!.node.id} ${access === 'upload' ? 'signs uploads of' : 'checks and reads'} evidence documents, each its own object under ${DOCUMENT_PREFIX} in bucket ${this.bucket.node.path}, and nothing else of it.`,
          appliesTo: [resourceFinding(this.bucket.node.defaultChild as CfnBucket, `/${DOCUMENT_PREFIX}*`)],
        },
      ],
      true,
    );
  }
}
