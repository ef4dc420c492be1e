import S3rver from '@20minutes/s3rver';
import AWSAccount from '@20minutes/s3rver/lib/models/account';
import { S3CorsConfiguration } from '@20minutes/s3rver/lib/models/config';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { localAwsConfig } from '../../shared/db/client';

/**
 * The local stack's S3 (product-decisions §13): @20minutes/s3rver, an S3-compatible server
 * (docs/decisions.md 46), serving the evidence documents' bucket. It checks SigV4 signatures,
 * header and presigned, of the access keys it is given, so a presigned upload of another
 * Content-Type or Content-Length is refused as S3 refuses it. Kinder than S3 (docs/decisions.md
 * 46): it takes an unsigned request as anonymous and serves it (no bucket policy, no block of
 * public access), and it keeps no versions; the dispute's HeadObject check of type and size
 * holds either way.
 */
export interface LocalS3 {
  url: string;
  stop(): Promise<void>;
  /** Lets a caller sign with this key pair (artifact mode: each function's credentials). */
  allowAccessKey(accessKeyId: string, secretAccessKey: string): void;
  /** Creates a bucket (artifact mode: the template's), unless it exists. */
  createBucket(name: string): Promise<void>;
  /** Sets a bucket's CORS rules, replacing any it had (S3's PutBucketCors). */
  setCors(bucket: string, rules: CorsRule[]): Promise<void>;
}

/** One CORS rule of a bucket, in CDK's words (lib/documents.ts). */
export interface CorsRule {
  allowedOrigins: string[];
  allowedMethods: readonly string[];
  allowedHeaders?: string[];
  maxAge?: number;
}

export const DEFAULT_S3_PORT = 4568;

/** The evidence documents' bucket in source mode (DOCUMENTS_BUCKET); artifact mode uses the template's. */
export const LOCAL_DOCUMENTS_BUCKET = 'payment-ops-documents';

export async function startLocalS3(options: { port?: number; dataDir: string; buckets: string[] }): Promise<LocalS3> {
  const inMemory = options.dataDir === ':memory:';
  // s3rver keeps objects in files: a temporary folder stands for `:memory:`, removed at stop.
  const directory = inMemory ? mkdtempSync(join(tmpdir(), 'local-s3-')) : resolve(options.dataDir, 's3');
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port ?? DEFAULT_S3_PORT,
    silent: true,
    directory,
    configureBuckets: options.buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const allowAccessKey = (accessKeyId: string, secretAccessKey: string) => AWSAccount.DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  // Source mode's clients sign with the local stack's static credentials.
  const { accessKeyId, secretAccessKey } = localAwsConfig('').credentials;
  allowAccessKey(accessKeyId, secretAccessKey);
  return {
    url: `http://127.0.0.1:${port}`,
    allowAccessKey,
    async createBucket(name) {
      // As its own `configureBuckets` does: its SigV4 check refuses the SDK's bucket-level calls
      // (CreateBucket), which the service never makes.
      if (!(await server.store.getBucket(name))) await server.store.putBucket(name);
    },
    async setCors(bucket, rules) {
      // As `configureBuckets` does with a configuration's XML: through the store, as the SDK's bucket-level calls are refused.
      await server.store.putSubresource(bucket, undefined, S3CorsConfiguration.validate(corsXml(rules)));
    },
    async stop() {
      await server.close();
      if (inMemory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** S3's CORSConfiguration document of the rules. */
function corsXml(rules: CorsRule[]): string {
  const elements = (name: string, values: readonly (string | number)[] = []) => values.map((value) => `<${name}>${xmlText(String(value))}</${name}>`).join('');
  const rule = (cors: CorsRule) =>
    `<CORSRule>${elements('AllowedOrigin', cors.allowedOrigins)}${elements('AllowedMethod', cors.allowedMethods)}${elements('AllowedHeader', cors.allowedHeaders)}${elements('MaxAgeSeconds', cors.maxAge === undefined ? [] : [cors.maxAge])}</CORSRule>`;
  return `<CORSConfiguration>${rules.map(rule).join('')}</CORSConfiguration>`;
}
