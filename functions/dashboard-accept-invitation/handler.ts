import { dashboardAcceptInvitation } from '../../shared/api/pages';
import { teamServices } from '../../shared/services/dashboard';
import { problemOf, requireFormToken, requireSameOrigin, signedInAnswer, signedOutFormAnswer, signInContextOf, signInSecretOf } from '../../shared/dashboard/http';
import { invitationPage } from '../../shared/dashboard/email-links';
import { BusinessRuleError } from '../../shared/errors';
import { auditCallerOf, audited } from '../../shared/http/audit';
import { formFields, pageHandler } from '../../shared/http/page';

const team = teamServices();

/**
 * POST /dashboard/invitations/{token}: an invitation accepted with a name and a password (§16).
 * 1. From the dashboard's origin with the token of this browser's form cookie (else 403).
 * 2. A link that no longer works (used, sent again, revoked, expired): 404. A name or password
 *    against the rules, or an email that got a user meanwhile: the form again, 422 beside it.
 * 3. The person created and signed in: 303 away from the link, to the dashboard with the
 *    session's cookie, or to the second factor's enrolment when the owner requires it.
 */
export const handler = pageHandler(async (event, urls) => {
  requireSameOrigin(event, urls);
  const fields = formFields(event);
  requireFormToken(fields, signInSecretOf(event));
  const token = event.pathParameters?.token ?? '';
  const name = fields.name ?? '';
  try {
    const outcome = await audited(dashboardAcceptInvitation.audit, auditCallerOf(event), () =>
      team.acceptInvitation(token, { name, password: fields.password ?? '' }, signInContextOf(event)),
    );
    return signedInAnswer(outcome, urls, urls.dashboard);
  } catch (error) {
    if (!(error instanceof BusinessRuleError)) throw error;
    const problem = problemOf(error, urls);
    const found = await team.invitationByLink(token);
    return signedOutFormAnswer(urls, problem.status, (formToken) => invitationPage(urls, token, { ...found, formToken, name, problem }));
  }
});
