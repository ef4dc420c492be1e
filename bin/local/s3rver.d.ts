/** The parts of @20minutes/s3rver (no types of its own) the local S3 uses. */
declare module '@20minutes/s3rver' {
  import type { AddressInfo } from 'node:net';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  }

  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Its file store: what `configureBuckets` creates buckets with. */
    store: {
      getBucket(name: string): Promise<unknown>;
      putBucket(name: string): Promise<unknown>;
      putSubresource(bucket: string, key: undefined, config: unknown): Promise<void>;
      /** A file of the store: `uploads` under a bucket is the folder of its multipart uploads' parts. */
      getResourcePath(bucket: string, key: undefined, resource: string): string;
      /** CompleteMultipartUpload: the parts as the request lists them, assembled into the object. */
      putObjectMultipart(bucket: string, uploadId: string, parts: { number: number; etag: string }[]): Promise<unknown>;
    };
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}

/** Its one account: the access keys whose signatures it checks (it knows only `S3RVER` unless told). */
declare module '@20minutes/s3rver/lib/models/account' {
  const AWSAccount: { DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void } };
  export = AWSAccount;
}

/** Its bucket configurations (CORS): parsed from their XML as S3 takes them. */
declare module '@20minutes/s3rver/lib/models/config' {
  export function getConfigModel(type: 'cors'): { validate(xml: string): unknown };
}

/** Its errors: what a request handler throws to answer with S3's error XML and status. */
declare module '@20minutes/s3rver/lib/models/error' {
  class S3Error extends Error {
    constructor(code: string, message: string, detail?: Record<string, string>);
  }
  export = S3Error;
}
