import { dashboardSecurity } from '../../shared/api/pages';
import { hashToken } from '../../shared/auth/tokens';
import { dashboardPage, PASSKEY_PAGE_HEADERS } from '../../shared/dashboard/http';
import { may } from '../../shared/dashboard/html';
import { pendingEnrolmentView } from '../../shared/dashboard/second-factor-answer';
import { SECURITY_FORMS, SECURITY_NOTICES, securityPage, type SecurityForms, type SecurityNotices } from '../../shared/dashboard/security';
import { dashboardSessionServices } from '../../shared/services/dashboard';
import { passkeyServices } from '../../shared/services/passkeys';
import { organizationSecurityPorts } from '../../shared/services/security';
import { twoFactorServices } from '../../shared/services/two-factor';

const sessions = dashboardSessionServices();
const twoFactor = twoFactorServices();
const passkeys = passkeyServices();
const { organization } = organizationSecurityPorts();

/**
 * GET /dashboard/security: the person's password form, two-factor (off, waiting for the code of
 * the QR code it shows, or on with its recovery codes left), their passkeys, their sessions with
 * this browser's marked, signing out everywhere; for the owner, "require two-factor". A refused
 * form comes back beside its field; what a form did is said once (recovery codes shown once).
 */
export const handler = dashboardPage(dashboardSecurity, sessions, async (request) => {
  const { member } = request;
  const userId = member.user.userId;
  const managesSecurity = may(request, 'security:manage');
  const [sessionList, status, pending, passkeyList, settings] = await Promise.all([
    sessions.sessionsOf(member),
    twoFactor.twoFactorStatus(userId),
    pendingEnrolmentView(twoFactor, member.user),
    passkeys.listPasskeys(userId),
    managesSecurity ? organization(member.user.orgId) : undefined,
  ]);
  const forms = Object.fromEntries(Object.entries(SECURITY_FORMS).map(([name, form]) => [name, request.formState(form)])) as SecurityForms;
  const notices = Object.fromEntries(Object.entries(SECURITY_NOTICES).map(([name, key]) => [name, request.notice(key)])) as SecurityNotices;
  return {
    status: 200,
    headers: PASSKEY_PAGE_HEADERS,
    html: securityPage(
      request,
      {
        sessions: sessionList,
        currentSession: hashToken(member.sessionId),
        twoFactor: { ...status, ...(!status.enabled && pending ? { pending } : {}) },
        passkeys: passkeyList,
        ...(managesSecurity ? { organization: { requireTwoFactor: !!settings?.requireTwoFactor } } : {}),
      },
      forms,
      notices,
    ),
  };
});
