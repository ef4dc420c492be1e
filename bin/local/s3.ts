import S3rver from '@20minutes/s3rver';
import AWSAccount from '@20minutes/s3rver/lib/models/account';
import { getConfigModel } from '@20minutes/s3rver/lib/models/config';
import S3Error from '@20minutes/s3rver/lib/models/error';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AWS_LIMITS } from '../../shared/aws-limits';
import { DOCUMENT_UPLOAD_CORS } from '../../shared/domain/dispute-documents';

/**
 * The local stack's S3 store (product-decisions §13): @20minutes/s3rver, an S3-compatible server
 * (docs/decisions.md 46), keeping the evidence documents' bucket, on a private port behind S3's
 * endpoint (S3_PORT), where the local AWS checks each request as S3 and IAM do first
 * (bin/local/aws/edge.ts, docs/decisions.md 86). It checks SigV4 signatures, header and
 * presigned, of the access keys it is given, so a presigned upload of another Content-Type or
 * Content-Length is refused as S3 refuses it, and so is an expired one. A multipart upload is
 * completed as S3 completes it (`completeAsS3Does`): parts in ascending order, each uploaded with
 * the ETag given, each but the last at least 5 MiB. Kinder than S3 (docs/decisions.md 46): it takes an
 * unsigned request as anonymous and serves it (the endpoint in front refuses it), and it keeps
 * no versions; the dispute's HeadObject check of type and size holds either way.
 */
export interface LocalS3 {
  /** The store's own address, which only the endpoint in front of it calls (and a test writing what S3 would refuse). */
  url: string;
  stop(): Promise<void>;
  /** Lets a caller sign with this key pair (each function's credentials, source mode's one). */
  allowAccessKey(accessKeyId: string, secretAccessKey: string): void;
  /** Creates a bucket (the template's), unless it exists. */
  createBucket(name: string): Promise<void>;
  /** Gives every bucket the documents' CORS rule for `origin` (the dashboard's, known once the stack listens), as the stack's bucket has it. */
  allowUploadsFrom(origin: string): Promise<void>;
}

/** DOCUMENT_UPLOAD_CORS as S3's PutBucketCors XML. */
const corsXml = (origin: string) =>
  `<CORSConfiguration><CORSRule><AllowedOrigin>${origin}</AllowedOrigin>${DOCUMENT_UPLOAD_CORS.methods.map((method) => `<AllowedMethod>${method}</AllowedMethod>`).join('')}` +
  `${DOCUMENT_UPLOAD_CORS.headers.map((header) => `<AllowedHeader>${header}</AllowedHeader>`).join('')}<MaxAgeSeconds>${DOCUMENT_UPLOAD_CORS.maxAgeSeconds}</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/** Where the local S3 answers by default (`npm start`'s S3_PORT): S3's endpoint, in front of the store. */
export const DEFAULT_S3_PORT = 4568;

/** A store without buckets yet, on a free port: the local AWS creates the template's (`createBucket`). */
export async function startLocalS3(options: { dataDir: string }): Promise<LocalS3> {
  const inMemory = options.dataDir === ':memory:';
  // s3rver keeps objects in files: a temporary folder stands for `:memory:`, removed at stop.
  const directory = inMemory ? mkdtempSync(join(tmpdir(), 'local-s3-')) : resolve(options.dataDir, 's3');
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
  });
  completeAsS3Does(server);
  const { port } = await server.run();
  const buckets = new Set<string>();
  const allowAccessKey = (accessKeyId: string, secretAccessKey: string) => AWSAccount.DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  return {
    url: `http://127.0.0.1:${port}`,
    allowAccessKey,
    async createBucket(name) {
      // Straight into its store: its SigV4 check refuses the SDK's bucket-level calls
      // (CreateBucket), which the service never makes.
      if (!(await server.store.getBucket(name))) await server.store.putBucket(name);
      buckets.add(name);
    },
    async allowUploadsFrom(origin) {
      for (const name of buckets) await server.store.putSubresource(name, undefined, getConfigModel('cors').validate(corsXml(origin)));
    },
    async stop() {
      await server.close();
      if (inMemory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver assembles whatever parts a CompleteMultipartUpload names; S3 refuses parts out of
 * order (InvalidPartOrder), one never uploaded or of another ETag (InvalidPart), and one smaller
 * than 5 MiB but the last (EntityTooSmall), before it assembles anything.
 */
function completeAsS3Does(server: S3rver): void {
  const { store } = server;
  const assemble = store.putObjectMultipart.bind(store);
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const folder = join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    if (parts.some((part, index) => index > 0 && part.number <= parts[index - 1].number)) {
      throw new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.');
    }
    for (const [index, part] of parts.entries()) {
      const file = join(folder, String(part.number));
      const uploaded = await readFile(`${file}.md5`, 'utf8').catch(() => undefined);
      if (uploaded === undefined || uploaded !== part.etag) {
        throw new S3Error('InvalidPart', "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.");
      }
      if (index < parts.length - 1 && (await stat(file)).size < AWS_LIMITS.s3.minPartBytes) {
        throw new S3Error('EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
      }
    }
    return assemble(bucket, uploadId, parts);
  };
}
