import * as z from '../zod';
import type { Mode } from '../auth/principal';
import { BusinessRuleError } from '../errors';
import { LIMITS } from '../limits';
import { DatetimeSchema, isoMillis } from '../time';
import { moneyOut } from '../money';
import type { DefenseDocument, DefenseDocumentFormats, DefenseDocumentRequirement, DefenseReason } from './acquirer';
import { DOCUMENT_CONTENT_TYPES, EVIDENCE_TEXTS, type Chargeback, type DocumentContentType, type Evidence, type EvidenceText } from './chargebacks';

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

// --- defense material: what the acquirer is sent -----------------------------------------------

/**
 * The evidence as a document the acquirer takes (its Dispute Service takes files only): the
 * chargeback it answers, then each text under its heading, in the order of the evidence fields.
 */
export interface EvidenceStatement {
  title: string;
  facts: string[];
  sections: { heading: string; text: string }[];
}

const EVIDENCE_HEADINGS: Record<EvidenceText, string> = {
  product_description: 'Product or service',
  customer_communication: 'Communication with the customer',
  refund_policy: 'Refund policy',
  shipping_tracking_number: 'Shipping tracking number',
  uncategorized_text: 'Other information',
};

/** The statement of `evidence`'s texts; undefined when it has none (documents only). */
export function evidenceStatement(chargeback: Chargeback, evidence: Evidence, submittedAt: string): EvidenceStatement | undefined {
  const sections = EVIDENCE_TEXTS.flatMap((field) => (evidence[field] === undefined ? [] : [{ heading: EVIDENCE_HEADINGS[field], text: evidence[field] }]));
  if (sections.length === 0) return undefined;
  const amount = moneyOut({ minor: chargeback.amountMinor, currency: chargeback.currency }, 'upper');
  return {
    title: 'Dispute evidence',
    facts: [
      `Dispute ${chargeback.acquirer.reference} (case ${chargeback.acquirer.case_id}) of ${amount.value} ${amount.currency}, reason ${chargeback.reason.code}`,
      `Payment ${chargeback.paymentId}, chargeback ${chargeback.id}; submitted ${submittedAt}`,
    ],
    sections,
  };
}

/** Renders what the acquirer takes (PDF) from what the merchant gave (shared/pdf/evidence-pdf.ts). */
export interface DefenseRenderer {
  /** The statement as a PDF. */
  statementPdf(statement: EvidenceStatement): Promise<Uint8Array>;
  /** A PNG image on a PDF page; undefined when its image data cannot be read. */
  pngPdf(png: Uint8Array): Promise<Uint8Array | undefined>;
}

/** How each type starts (its magic number): a file that does not is not of its declared type. */
const SIGNATURES: Record<DocumentContentType, readonly number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

const NAMES: Record<DocumentContentType, string> = { 'application/pdf': 'PDF', 'image/png': 'PNG', 'image/jpeg': 'JPEG' };

const refused = (detail: string, attribute = 'evidence.documents') => new BusinessRuleError(detail, attribute);

/**
 * How a merchant's document reaches an acquirer that takes `formats` (422 `evidence.documents`
 * otherwise, before anything is read): as it is, within the acquirer's size for its type, or,
 * a PNG, as a PDF of it (checked once made, `requireTaken`).
 */
export function defenseFormOf(document: DisputeDocument, formats: DefenseDocumentFormats): 'as_is' | 'pdf_of_png' {
  const largest = formats[document.contentType];
  if (largest !== undefined && document.size <= largest) return 'as_is';
  if (largest !== undefined) {
    throw refused(`Document ${document.id} is a ${NAMES[document.contentType]} of ${document.size} bytes; the acquirer takes ${NAMES[document.contentType]} files of at most ${largest} bytes`);
  }
  if (document.contentType === 'image/png' && formats['application/pdf'] !== undefined) return 'pdf_of_png';
  throw refused(`Document ${document.id} is a ${NAMES[document.contentType]}, which the acquirer does not take`);
}

/**
 * The document's bytes are of its declared type (its magic number), and a PNG is small enough
 * to decode within the function's memory (LIMITS.evidence.pngPixels, read from its header).
 */
export function requireContentOf(document: DisputeDocument, content: Uint8Array): void {
  if (!SIGNATURES[document.contentType].every((byte, index) => content[index] === byte)) {
    throw refused(`Document ${document.id} is not a ${NAMES[document.contentType]} file: its content does not start as one`);
  }
  if (document.contentType !== 'image/png') return;
  const size = pngSize(content);
  if (!size || size.width * size.height > LIMITS.evidence.pngPixels) {
    throw refused(`Document ${document.id} is a PNG ${size ? `of ${size.width}×${size.height} pixels` : 'without a readable header'}; at most ${LIMITS.evidence.pngPixels} pixels are turned into a PDF`);
  }
}

/** A PNG's width and height, from its header chunk (IHDR, always first: bytes 12 to 23). */
function pngSize(content: Uint8Array): { width: number; height: number } | undefined {
  if (content.length < 24 || String.fromCharCode(...content.subarray(12, 16)) !== 'IHDR') return undefined;
  const view = new DataView(content.buffer, content.byteOffset, content.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** A PDF the service made (of the texts, or of a PNG) within the acquirer's size for PDFs; 422 at `attribute` otherwise. */
export function requireTaken(pdf: Uint8Array, formats: DefenseDocumentFormats, what: string, attribute: string): Pick<DefenseDocument, 'contentType' | 'content'> {
  const largest = formats['application/pdf'] ?? 0;
  if (pdf.length > largest) throw refused(`The PDF of ${what} is ${pdf.length} bytes; the acquirer takes PDF files of at most ${largest} bytes`, attribute);
  return { contentType: 'application/pdf', content: pdf };
}
