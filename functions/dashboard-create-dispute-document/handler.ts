import { dashboardSessionServices } from '../../shared/services/dashboard';
import { documentUploadPorts } from '../../shared/services/chargeback-answers';
import { dashboardCreateDisputeDocument } from '../../shared/api/pages';
import { disputeDocumentResource } from '../../shared/domain/dispute-documents';
import { documentBody } from '../../shared/dashboard/chargebacks';
import { dashboardScriptRequest } from '../../shared/dashboard/http';
import { createDisputeDocument } from '../../shared/use-cases/chargeback-answers';

const sessions = dashboardSessionServices();
const deps = documentUploadPorts();

/**
 * POST /dashboard/chargebacks/{id}/documents: `POST /v1/chargebacks/{id}/documents` for the
 * chargeback page's script, one per chosen file: 201 with the document and its presigned upload
 * (JSON), which the script sends the file with; a refusal is the API's error envelope.
 */
export const handler = dashboardScriptRequest(sessions, dashboardCreateDisputeDocument, {
  body: documentBody,
  run: async ({ principal, path, body }) => {
    const { document, upload } = await createDisputeDocument(deps, principal, path.id, body);
    return { status: 201, body: disputeDocumentResource(document, upload) };
  },
});
