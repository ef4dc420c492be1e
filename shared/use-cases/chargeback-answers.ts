import type { Principal } from '../auth/principal';
import type { ChargebackRepository } from '../db/chargeback-repository';
import type { PublicUrls } from '../config';
import type { AcceptorLookup } from '../db/directory-lookups';
import type { DisputeDocumentRepository } from '../db/dispute-document-repository';
import type { DefenseDocument, DisputeAcquirer, DisputeAtAcquirer } from '../domain/acquirer';
import { requireAnswerable, type Chargeback, type Evidence } from '../domain/chargebacks';
import {
  chooseDefense,
  defenseFormOf,
  evidenceStatement,
  newDisputeDocument,
  requireContentOf,
  requireTaken,
  requireUploaded,
  type DefenseRenderer,
  type DisputeDocument,
  type DocumentStore,
  type PresignedUpload,
  type StoredObject,
} from '../domain/dispute-documents';
import type { DocumentBody } from '../domain/chargebacks';
import { requireOwned } from '../domain/scope';
import { BusinessRuleError } from '../errors';
import { newId } from '../ids';
import { isoMillis } from '../time';
import { LIMITS } from '../limits';
import { acquirerCall } from './acquirer-calls';
import type { ChargebackUseCases } from './chargebacks';

/**
 * A merchant's answers to a chargeback (product-decisions §13): accept it, or dispute it with
 * evidence and uploaded documents. In live mode the answer goes to the acquirer first and the
 * chargeback moves only once the acquirer took it; in test mode there is no acquirer to ask.
 */
export interface AnswerDeps {
  chargebacks: Pick<ChargebackRepository, 'get'>;
  /** The one conditional move of a chargeback (shared/use-cases/chargebacks.ts). */
  transition: ChargebackUseCases['transition'];
  documents: Pick<DisputeDocumentRepository, 'create' | 'get'>;
  store: DocumentStore;
  /** The acquirer's dispute half, built on first use; an `AcquirerUnavailableError` when it cannot be had. */
  acquirer: () => Promise<DisputeAcquirer>;
  /** Makes the PDFs the acquirer is sent (the texts; a PNG), loaded on a live dispute's first need. */
  renderer: () => Promise<DefenseRenderer>;
  /** The acquirer's name on the chargebacks its disputes open (`acquirer.name`): only those can be answered there. */
  acquirerName: string;
  /** The acceptors: a chargeback's acceptor holds the account the dispute is under at the acquirer. */
  acceptors: AcceptorLookup;
  now: () => Date;
}

type LiveDeps = Pick<AnswerDeps, 'acquirer' | 'acquirerName' | 'acceptors'>;
type Uploaded = { document: DisputeDocument; stored: StoredObject };

async function answerable(deps: Pick<AnswerDeps, 'chargebacks' | 'now'>, principal: Principal, id: string): Promise<Chargeback> {
  const chargeback = requireOwned(await deps.chargebacks.get(id), principal);
  requireAnswerable(chargeback, deps.now());
  return chargeback;
}

/**
 * POST /v1/chargebacks/:id/accept.
 * 1. The chargeback, the caller's (404 otherwise), `open` before its deadline (422 `status` otherwise).
 * 2. Live: the acquirer accepts the dispute (unreachable: 503, nothing changed; refused: 422).
 * 3. `accepted` with its event, under the condition that it is still open (a concurrent answer
 *    or the deadline sweep that came first makes this one a 422 `status`).
 */
export async function acceptChargeback(deps: Pick<AnswerDeps, 'chargebacks' | 'transition' | 'now'> & LiveDeps, principal: Principal, id: string, urls: PublicUrls): Promise<Chargeback> {
  const chargeback = await answerable(deps, principal, id);
  if (chargeback.mode === 'live') {
    const dispute = await disputeAtAcquirer(deps, chargeback);
    const acquirer = await deps.acquirer();
    await acquirerCall('accept_dispute', () => acquirer.accept(dispute));
  }
  return deps.transition(chargeback, 'accepted', urls);
}

/**
 * POST /v1/chargebacks/:id/dispute.
 * 1. The chargeback, the caller's (404), `open` before its deadline (422 `status`).
 * 2. Each named document: one of this chargeback's, uploaded with its declared type and size
 *    (422 `evidence.documents` otherwise).
 * 3. Live: the defense material, made and checked before anything is sent (`defenseMaterial`),
 *    then the acquirer's applicable defense reasons and the one the material can make
 *    (`chooseDefense`; none: 422); each piece supplied as that reason's type, then the defense
 *    (unreachable: 503, refused: 422; nothing changed here).
 * 4. `disputed` with `dispute: {submitted_at, evidence}` and its event, under the condition
 *    that it is still open.
 */
export async function disputeChargeback(deps: AnswerDeps, principal: Principal, id: string, evidence: Evidence, urls: PublicUrls): Promise<Chargeback> {
  const chargeback = await answerable(deps, principal, id);
  const uploaded: Uploaded[] = [];
  for (const documentId of evidence.documents ?? []) {
    const document = await deps.documents.get(chargeback.id, documentId);
    if (!document) throw new BusinessRuleError(`Document ${documentId} is not a document of chargeback ${chargeback.id}`, 'evidence.documents');
    uploaded.push({ document, stored: requireUploaded(document, await deps.store.head(document.objectKey)) });
  }
  // One moment for the dispute: the statement the acquirer gets dates it as `submitted_at` does.
  const submittedAt = deps.now();
  if (chargeback.mode === 'live') await defendAtAcquirer(deps, chargeback, evidence, uploaded, submittedAt);
  return deps.transition(chargeback, 'disputed', urls, 'action', submittedAt, evidence);
}

/**
 * The dispute as the acquirer knows it: the chargeback's acquirer reference, under the merchant
 * account of its acceptor. A live chargeback that another acquirer's feed opened cannot be
 * answered through the service's acquirer (422).
 */
async function disputeAtAcquirer(deps: LiveDeps, chargeback: Chargeback): Promise<DisputeAtAcquirer> {
  if (chargeback.acquirer.name !== deps.acquirerName) {
    throw new BusinessRuleError(`This chargeback came from the acquirer ${chargeback.acquirer.name}, which takes no answers through this API: answer it with that acquirer`);
  }
  const merchantAccount = (await deps.acceptors.getAcceptor(chargeback.orgId, chargeback.acceptorId))?.merchantAccount;
  if (!merchantAccount) throw new BusinessRuleError(`This chargeback's acceptor has no account at the acquirer to answer it from`);
  return { disputeReference: chargeback.acquirer.reference, merchantAccount };
}

async function defendAtAcquirer(deps: AnswerDeps, chargeback: Chargeback, evidence: Evidence, uploaded: Uploaded[], submittedAt: Date): Promise<void> {
  const dispute = await disputeAtAcquirer(deps, chargeback);
  const acquirer = await deps.acquirer();
  const material = await defenseMaterial(deps, acquirer, { chargeback, evidence, uploaded, submittedAt });
  await acquirerCall('defend_dispute', async () => {
    const defense = chooseDefense(await acquirer.defenseReasons(dispute), material.length);
    if (!defense) throw new BusinessRuleError('The acquirer offers no defense reason that these documents can support', 'evidence.documents');
    const { documentTypeCode } = defense;
    if (documentTypeCode) {
      for (const piece of material) await acquirer.supplyDefenseDocument(dispute, { typeCode: documentTypeCode, ...piece });
    }
    await acquirer.defend(dispute, defense.reasonCode);
  });
}

/**
 * What the acquirer is sent, all of it made and checked before the first request, so that
 * nothing it would refuse goes out and no answer is left half supplied (422 otherwise):
 * 1. each document's declared type and size against the acquirer's formats (`defenseFormOf`);
 * 2. the texts, when there are any, as one PDF statement (the acquirer takes files only),
 *    within its PDF size (422 `evidence`);
 * 3. each document read from the store (the version checked above), its content of its type;
 *    a PNG turned into a PDF within that size.
 * At most the statement and five documents are held (each at most 4 MiB).
 */
async function defenseMaterial(
  deps: Pick<AnswerDeps, 'store' | 'renderer'>,
  acquirer: DisputeAcquirer,
  { chargeback, evidence, uploaded, submittedAt }: { chargeback: Chargeback; evidence: Evidence; uploaded: Uploaded[]; submittedAt: Date },
): Promise<Pick<DefenseDocument, 'contentType' | 'content'>[]> {
  const formats = acquirer.documentFormats;
  const forms = uploaded.map(({ document }) => defenseFormOf(document, formats));
  const material: Pick<DefenseDocument, 'contentType' | 'content'>[] = [];
  const statement = evidenceStatement(chargeback, evidence, isoMillis(submittedAt));
  if (statement) material.push(requireTaken(await (await deps.renderer()).statementPdf(statement), formats, 'the evidence texts', 'evidence'));
  for (const [index, { document, stored }] of uploaded.entries()) {
    const content = await deps.store.read(document.objectKey, stored.versionId);
    requireContentOf(document, content);
    if (forms[index] === 'as_is') {
      material.push({ contentType: document.contentType as DefenseDocument['contentType'], content });
      continue;
    }
    const pdf = await (await deps.renderer()).pngPdf(content);
    if (!pdf) throw new BusinessRuleError(`Document ${document.id} cannot be read as a PNG image, to be sent as a PDF`, 'evidence.documents');
    material.push(requireTaken(pdf, formats, `document ${document.id}`, 'evidence.documents'));
  }
  return material;
}

/**
 * POST /v1/chargebacks/:id/documents.
 * 1. The chargeback, the caller's (404), still answerable (422 `status`).
 * 2. The document: its declared name, type and size, its object's key in the store.
 * 3. A presigned upload bound to that type and size, valid 15 minutes.
 */
export async function createDisputeDocument(
  deps: Pick<AnswerDeps, 'chargebacks' | 'documents' | 'store' | 'now'>,
  principal: Principal,
  id: string,
  body: DocumentBody,
): Promise<{ document: DisputeDocument; upload: PresignedUpload }> {
  const chargeback = await answerable(deps, principal, id);
  const now = deps.now();
  const document = newDisputeDocument(
    {
      id: newId('disputeDocument'),
      chargebackId: chargeback.id,
      orgId: chargeback.orgId,
      mode: chargeback.mode,
      filename: body.filename,
      // The schema admits only the three types.
      contentType: body.content_type as DisputeDocument['contentType'],
      size: body.size,
    },
    now,
  );
  await deps.documents.create(document);
  return { document, upload: await deps.store.presignUpload(document, LIMITS.evidence.uploadSeconds, now) };
}
