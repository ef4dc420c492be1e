import { S3Client } from '@aws-sdk/client-s3';

/**
 * The service's S3 client (the documents' bucket: evidence documents and report files). The same
 * code runs against the local stack's edge (AWS_ENDPOINT_URL_S3; path-style there, as it answers
 * on an IP).
 */
export const bucketClient = () =>
  new S3Client({
    // Since 3.729 the SDK adds a CRC32 of the request body to every PutObject, and a presigned
    // URL then carries the checksum of an empty body: S3 refuses the real upload (BadDigest).
    // Checksums only where the API requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
