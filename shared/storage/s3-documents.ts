import { GetObjectCommand, HeadObjectCommand, NotFound, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { DocumentStore, StoredObject } from '../domain/dispute-documents';
import { isoMillis } from '../time';
import { bucketClient } from './s3-client';

/**
 * The origin the presigned uploads of `bucket` go to (`https://{bucket}.s3.{region}.amazonaws.com`
 * in AWS, the local S3 or the edge locally), as the store signs them: a URL signed on the spot,
 * which reaches nothing and needs no permission.
 */
export async function documentUploadOrigin(bucket: string): Promise<string> {
  return new URL(await getSignedUrl(bucketClient(), new PutObjectCommand({ Bucket: bucket, Key: 'origin' }))).origin;
}

/** The document store on S3 (product-decisions §13), in the bucket DOCUMENTS_BUCKET names. */
export function s3DocumentStore(bucket: string): DocumentStore {
  const s3 = bucketClient();
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
