import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AWS_LIMITS } from '../aws-limits';
import type { ReportFiles, ReportFileWriter } from '../domain/reports';
import { isoMillis } from '../time';

/**
 * The report files on S3 (product-decisions §18), in the bucket `bucket` names, under the
 * reports' prefix. A file is written as a multipart upload: what is written waits in memory
 * only until it fills a part (`partBytes`, S3's least but for the last part), which is then
 * uploaded before more is taken, so a report of any length holds one part at a time.
 */
export function s3ReportFiles(s3: S3Client, bucket: string, partBytes: number = AWS_LIMITS.s3.minPartBytes): ReportFiles {
  return {
    async open(objectKey, fileName) {
      const upload = await s3.send(
        new CreateMultipartUploadCommand({
          Bucket: bucket,
          Key: objectKey,
          ContentType: 'text/csv; charset=utf-8',
          ContentDisposition: `attachment; filename="${fileName}"`,
        }),
      );
      return multipartWriter(s3, { Bucket: bucket, Key: objectKey, UploadId: upload.UploadId! }, partBytes);
    },

    async presignDownload(objectKey, seconds, now) {
      const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: bucket, Key: objectKey }), { expiresIn: seconds, signingDate: now });
      return { url, expiresAt: isoMillis(now.getTime() + seconds * 1000) };
    },
  };
}

function multipartWriter(s3: S3Client, upload: { Bucket: string; Key: string; UploadId: string }, partBytes: number): ReportFileWriter {
  const parts: { PartNumber: number; ETag: string }[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;

  async function uploadPending(): Promise<void> {
    const PartNumber = parts.length + 1;
    if (PartNumber > AWS_LIMITS.s3.maxParts) throw new Error(`A report file may not pass ${AWS_LIMITS.s3.maxParts} parts`);
    const body = Buffer.concat(pending);
    pending = [];
    pendingBytes = 0;
    const answer = await s3.send(new UploadPartCommand({ ...upload, PartNumber, Body: body, ContentLength: body.length }));
    parts.push({ PartNumber, ETag: answer.ETag! });
  }

  return {
    async write(text) {
      const bytes = Buffer.from(text, 'utf8');
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= partBytes) await uploadPending();
    },
    async finish() {
      // The last part may be smaller than the rest (an empty one only when nothing else was sent).
      if (pendingBytes > 0 || parts.length === 0) await uploadPending();
      await s3.send(new CompleteMultipartUploadCommand({ ...upload, MultipartUpload: { Parts: parts } }));
    },
    async abort() {
      pending = [];
      await s3.send(new AbortMultipartUploadCommand(upload));
    },
  };
}
