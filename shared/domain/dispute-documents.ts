import * as z from '../zod';
import type { Mode } from '../auth/principal';
import { BusinessRuleError } from '../errors';
import { LIMITS } from '../limits';
import { DatetimeSchema, isoMillis } from '../time';
import type { DefenseDocumentRequirement, DefenseReason } from './acquirer';
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
 * The defense the merchant's evidence can make at the acquirer (product-decisions §13,
 * docs/decisions.md 60). The API's evidence names no argument and its documents no type, so:
 * 1. the generic reason first (it claims nothing the merchant did not), then the others in the
 *    acquirer's order;
 * 2. with documents, the first of them that one document type meets on its own, every document
 *    supplied as that type; without documents, the first that needs none.
 * Undefined when none fits (422: the acquirer would refuse the defense).
 */
export function chooseDefense(reasons: DefenseReason[], documents: number): Defense | undefined {
  for (const reason of [...reasons.filter((reason) => reason.generic), ...reasons.filter((reason) => !reason.generic)]) {
    if (documents === 0) {
      if (reason.documentTypes.every((type) => type.requirement === 'optional')) return { reasonCode: reason.code };
      continue;
    }
    const documentTypeCode = oneTypeMeeting(reason);
    if (documentTypeCode) return { reasonCode: reason.code, documentTypeCode };
  }
  return undefined;
}

/**
 * The one document type that meets `reason` alone: its only required type, or one of its
 * one-or-more group, or any of its types when it needs none; else its generic alternative
 * (Adyen's AlternativeRequired, which an account may use only once Adyen enabled it: last).
 */
function oneTypeMeeting(reason: DefenseReason): string | undefined {
  const of = (requirement: DefenseDocumentRequirement) => reason.documentTypes.filter((type) => type.requirement === requirement).map((type) => type.code);
  const [required, oneOrMore, [alternative]] = [of('required'), of('one_or_more'), of('alternative_required')];
  if (required.length + (oneOrMore.length > 0 ? 1 : 0) > 1) return alternative;
  return required[0] ?? oneOrMore[0] ?? alternative ?? reason.documentTypes[0]?.code;
}
