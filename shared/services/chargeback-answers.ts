import { createChargebackRepository } from '../db/chargeback-repository';
import { createAcceptorLookup } from '../db/directory-lookups';
import { createDisputeDocumentRepository } from '../db/dispute-document-repository';
import { documentUploadOrigin, s3DocumentStore } from '../storage/s3-documents';
import { disputeAcquirer } from './acquirer-disputes';
import { ACQUIRER_NAME } from './acquirer-secret';
import { chargebackServices } from './chargebacks';
import { documentsBucket, once, onceAsync, processWiring } from './wiring';

const documentStore = /* @__PURE__ */ once(() => s3DocumentStore(documentsBucket()));

/** Where the browser sends the presigned uploads: the chargeback page lets its script reach that origin only. */
export const documentUploadOriginService = /* @__PURE__ */ onceAsync(() => documentUploadOrigin(documentsBucket()));

/** What creating an evidence document uses: the chargeback read, the documents, the store. A module apart, so its bundle holds no move. */
export const documentUploadPorts = /* @__PURE__ */ once(() => {
  const { db, tableName, now } = processWiring();
  return { chargebacks: createChargebackRepository(db, tableName), documents: createDisputeDocumentRepository(db, tableName), store: documentStore(), now };
});

/** What accepting uses: the chargeback and its move; in live mode the acquirer, and the acceptor's account there. */
export const acceptPorts = /* @__PURE__ */ once(() => {
  const { chargebacks, transition } = chargebackServices();
  const { db, tableName, now } = processWiring();
  return { chargebacks, transition, acquirer: disputeAcquirer, acquirerName: ACQUIRER_NAME, acceptors: createAcceptorLookup(db, tableName), now };
});

/**
 * The PDFs a live dispute sends the acquirer, loaded on its first need: a test-mode dispute
 * never loads the PDF library. In a bundle the module is a file of its own beside it
 * (`evidence-pdf.mjs`), since V8 parses a bundle whole at init, evaluated or not; in source
 * mode, the module itself.
 */
const defenseRenderer = /* @__PURE__ */ onceAsync(async () => {
  const { evidencePdf }: typeof import('../pdf/evidence-pdf') =
    typeof BUNDLED_APART !== 'undefined' ? await import(require.resolve('./evidence-pdf.mjs')) : await import('../pdf/evidence-pdf');
  return evidencePdf();
});

/** What disputing uses: what accepting does, the documents and their store, and in live mode the PDFs it makes. */
export const disputePorts = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return { ...acceptPorts(), documents: createDisputeDocumentRepository(db, tableName), store: documentStore(), renderer: defenseRenderer };
});
