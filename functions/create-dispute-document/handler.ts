import { createDisputeDocument as createDisputeDocumentOperation } from '../../shared/api/chargebacks';
import { disputeDocumentResource } from '../../shared/domain/dispute-documents';
import { apiHandler } from '../../shared/http/api';
import { documentUploadPorts } from '../../shared/services/chargeback-answers';
import { createDisputeDocument } from '../../shared/use-cases/chargeback-answers';

const deps = documentUploadPorts();

/** POST /v1/chargebacks/{id}/documents: the document and its presigned upload. */
export const handler = apiHandler(createDisputeDocumentOperation, async ({ principal, path, body }) => {
  const { document, upload } = await createDisputeDocument(deps, principal, path.id, body);
  return { status: 201, body: disputeDocumentResource(document, upload) };
});
