import * as z from '../zod';
import type { Mode } from '../auth/principal';
import { BusinessRuleError } from '../errors';
import { LIMITS } from '../limits';
import { DatetimeSchema, isoMillis } from '../time';
import type { DefenseReason } from './acquirer';
import { DOCUMENT_CONTENT_TYPES, type DocumentContentType } from './chargebacks';

/**
 * Evidence documents (product-decisions §13): a merchant declares a file (name, type, size), is
 * given a presigned upload bound to that type and size, uploads it straight to the document
 * store, and names it in a dispute. Pure rules only: the stored shape, where its object lives,
 * what makes an upload usable, and the API shape.
 */
export interface DisputeDocument {
  id: string;
  chargebackId: string;
  orgId: string;
  mode: Mode;
  filename: string;
  contentType: DocumentContentType;
  /** Bytes, as declared: the upload must have exactly this size. */
  size: number;
  /** The object's key in the document store. */
  objectKey: string;
  createdAt: string;
}

/**
 * Where a document's object lives: under `documents/`, the one prefix the functions may upload
 * to or read (lib/documents.ts), then by organization, mode and chargeback.
 */
export const documentObjectKey = (document: Pick<DisputeDocument, 'id' | 'chargebackId' | 'orgId' | 'mode'>) =>
  `documents/${document.orgId}/${document.mode}/${document.chargebackId}/${document.id}`;

/** The prefix every document object is under (the grants of lib/documents.ts name it). */
export const DOCUMENT_PREFIX = 'documents/';

/**
 * The CORS rule of the documents' bucket, for the dashboard's origin only: its page's script
 * PUTs each file with its presigned upload (lib/documents.ts; the local S3 the same, bin/local/s3.ts).
 */
export const DOCUMENT_UPLOAD_CORS = { methods: ['PUT'], headers: ['content-type'], maxAgeSeconds: LIMITS.evidence.uploadSeconds } as const;

/** What the store says of an object, when it exists. */
export interface StoredObject {
  contentType: string | undefined;
  size: number;
  /** The version read (the bucket is versioned): the evidence is that version, whatever is uploaded after. */
  versionId: string | undefined;
}

/** A presigned upload: an HTTP request the store takes only with these headers, until `expiresAt`. */
export interface PresignedUpload {
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
}

/** The document store's port (S3 in AWS, an S3-compatible server locally: shared/storage/s3-documents.ts). */
export interface DocumentStore {
  /** A PUT of exactly the document's type and size to its object, valid `seconds` from `now`. */
  presignUpload(document: DisputeDocument, seconds: number, now: Date): Promise<PresignedUpload>;
  /** The object's type, size and version; undefined when nothing was uploaded. */
  head(objectKey: string): Promise<StoredObject | undefined>;
  /** The object's bytes, of that version. */
  read(objectKey: string, versionId: string | undefined): Promise<Uint8Array>;
}

/**
 * A document can be used in a dispute once its object arrived with the declared type and size
 * (the store refuses another with the presigned URL; this check also holds where a store is
 * kinder, and against an upload that never came). 422 `evidence.documents` otherwise.
 */
export function requireUploaded(document: DisputeDocument, stored: StoredObject | undefined): StoredObject {
  if (!stored) throw new BusinessRuleError(`Document ${document.id} has not been uploaded`, 'evidence.documents');
  if (stored.size !== document.size || stored.contentType !== document.contentType) {
    throw new BusinessRuleError(
      `Document ${document.id} was uploaded as ${stored.contentType ?? 'no type'} of ${stored.size} bytes, not the declared ${document.contentType} of ${document.size} bytes`,
      'evidence.documents',
    );
  }
  return stored;
}

export function newDisputeDocument(input: Omit<DisputeDocument, 'objectKey' | 'createdAt'>, now: Date): DisputeDocument {
  return { ...input, objectKey: documentObjectKey(input), createdAt: isoMillis(now) };
}

/** The answer of POST /v1/chargebacks/:id/documents. */
export const DisputeDocumentSchema = /* @__PURE__ */ (() =>
  z.withMeta(
    z.strictObject({
      id: z.string(),
      object: z.literal('dispute_document'),
      filename: z.string(),
      content_type: z.enum(DOCUMENT_CONTENT_TYPES),
      size: z.int(),
      upload: z.withMeta(
        z.strictObject({
          url: z.string(),
          method: z.literal('PUT'),
          headers: z.record(z.string(), z.string()),
          expires_at: DatetimeSchema,
        }),
        { description: 'Send the file with this request, these headers included, before `expires_at`; the store refuses another type or size.' },
      ),
    }),
    { id: 'DisputeDocument' },
  ))();

export function disputeDocumentResource(document: DisputeDocument, upload: PresignedUpload): z.infer<typeof DisputeDocumentSchema> {
  return {
    id: document.id,
    object: 'dispute_document',
    filename: document.filename,
    content_type: document.contentType,
    size: document.size,
    upload: { url: upload.url, method: upload.method, headers: upload.headers, expires_at: upload.expiresAt },
  };
}

/** How a dispute's documents defend it at the acquirer: one applicable reason, and the type code all of them are supplied as. */
export interface Defense {
  reasonCode: string;
  /** Absent when the reason needs no document (then none is supplied). */
  documentTypeCode?: string;
}

/**
 * The defense the merchant's evidence can make at the acquirer (Adyen: one of
 * `retrieveApplicableDefenseReasons`, product-decisions §13). The service's evidence is untyped
 * documents, so they are supplied under one document type: the first reason whose documents
 * that one type satisfies (at most one required type, or one of a one-or-more group), with
 * documents given; without documents, the first reason that needs none. Undefined when no
 * reason fits (422: the acquirer would refuse the defense).
 */
export function chooseDefense(reasons: DefenseReason[], documents: number): Defense | undefined {
  for (const reason of reasons) {
    const required = reason.documentTypes.filter((type) => type.requirement === 'required').map((type) => type.code);
    const oneOf = reason.documentTypes.filter((type) => type.requirement === 'one_or_more' || type.requirement === 'alternative_required').map((type) => type.code);
    if (documents === 0) {
      if (required.length === 0 && oneOf.length === 0) return { reasonCode: reason.code };
      continue;
    }
    if (required.length > 1) continue;
    const [type] = required.length === 1 ? required : oneOf.length > 0 ? oneOf : reason.documentTypes.map((candidate) => candidate.code);
    if (type === undefined) continue;
    if (oneOf.length > 0 && !oneOf.includes(type)) continue;
    return { reasonCode: reason.code, documentTypeCode: type };
  }
  return undefined;
}
