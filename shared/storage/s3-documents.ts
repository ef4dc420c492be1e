import { GetObjectCommand, HeadObjectCommand, NotFound, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { localAwsConfig } from '../db/client';
import type { DocumentStore, StoredObject } from '../domain/dispute-documents';
import { isoMillis } from '../time';

export interface DocumentBucket {
  /** DOCUMENTS_BUCKET. */
  bucket: string;
  /** S3_ENDPOINT: the local stack's S3-compatible server (source mode); unset in AWS and in artifact mode, where the SDK's own endpoint settings stand. */
  endpoint?: string;
}

/**
 * The document store on S3 (product-decisions §13). The same code runs against the local
 * S3-compatible server: only the endpoint differs (path-style there, as it answers on an IP).
 */
const documentsClient = (endpoint: string | undefined) =>
  new S3Client({
    ...(endpoint ? { ...localAwsConfig(endpoint), forcePathStyle: true } : {}),
    // Since 3.729 the SDK adds a CRC32 of the request body to every PutObject, and a presigned
    // URL then carries the checksum of an empty body: S3 refuses the real upload (BadDigest).
    // Checksums only where the API requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });

/**
 * The origin the presigned uploads of `bucket` go to (`https://{bucket}.s3.{region}.amazonaws.com`
 * in AWS, the local S3 or the edge locally), as the store signs them: a URL signed on the spot,
 * which reaches nothing and needs no permission.
 */
export async function documentUploadOrigin({ bucket, endpoint }: DocumentBucket): Promise<string> {
  return new URL(await getSignedUrl(documentsClient(endpoint), new PutObjectCommand({ Bucket: bucket, Key: 'origin' }))).origin;
}

export function s3DocumentStore({ bucket, endpoint }: DocumentBucket): DocumentStore {
  const s3 = documentsClient(endpoint);
  return {
    async presignUpload(document, seconds, now) {
      const command = new PutObjectCommand({ Bucket: bucket, Key: document.objectKey, ContentType: document.contentType, ContentLength: document.size });
      // The presigner leaves Content-Type unsigned unless told: signed, S3 refuses an upload of
      // another type, as it refuses another Content-Length (signed by default).
      const url = await getSignedUrl(s3, command, { expiresIn: seconds, signingDate: now, signableHeaders: new Set(['content-type']) });
      return {
        url,
        method: 'PUT',
        headers: { 'Content-Type': document.contentType, 'Content-Length': String(document.size) },
        expiresAt: isoMillis(now.getTime() + seconds * 1000),
      };
    },

    async head(objectKey): Promise<StoredObject | undefined> {
      try {
        const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey }));
        return { contentType: head.ContentType, size: head.ContentLength ?? 0, versionId: head.VersionId };
      } catch (error) {
        if (error instanceof NotFound) return undefined;
        throw error;
      }
    },

    async read(objectKey, versionId) {
      const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: objectKey, VersionId: versionId }));
      return object.Body!.transformToByteArray();
    },
  };
}
