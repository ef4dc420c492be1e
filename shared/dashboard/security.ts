import type { PublicUrls } from '../config';
import { LIMITS } from '../limits';
import { escapeHtml } from '../http/page';
import { PASSKEY_NAME_MAX_LENGTH, type Passkey } from '../domain/passkeys';
import type { ListedSession } from '../domain/team';
import { formOf, type FormState } from './forms';
import { actionFields, badge, code, may, noticeBox, postForm, signedInPage, table, time, titledSection, type Frame, type Notice } from './html';
import { passkeyScriptTag } from './passkey-script';
import { userAgentCell } from './user-agent';
import { codeField, enrolmentDetails, passkeyForm, RECOVERY_CODES, type EnrolmentView } from './second-factor';

/** The person's own security page. */
export const securityPagePath = (urls: PublicUrls) => `${urls.dashboard}/security`;

/** What the security page shows of each session: this browser marked, where and when it signed in, its last request. */
const sessionColumns = (current: string) => ({
  head: { label: 'Signed in', cell: (session: ListedSession) => `${time(session.createdAt)}${session.idHash === current ? ' <span class="badge good">This browser</span>' : ''}` },
  row: () => '',
  columns: [
    { label: 'Last request', cell: (session: ListedSession) => time(session.lastSeenAt) },
    { label: 'Browser', cell: (session: ListedSession) => userAgentCell(session.userAgent), kind: 'text' as const },
    { label: 'Address', cell: (session: ListedSession) => (session.ip ? code(session.ip) : '—') },
  ],
});

/** What the security page shows of the person's second factors, and of their organization's settings for those who manage them. */
export interface SecurityView {
  sessions: ListedSession[];
  /** This browser's session (its store key). */
  currentSession: string;
  twoFactor: { enabled: boolean; enabledAt?: string; recoveryCodesLeft: number; pending?: EnrolmentView };
  passkeys: Passkey[];
  /** Only for a role with `security:manage`. */
  organization?: { requireTwoFactor: boolean };
}

/** The page's forms, each as a refused submission brings it back (FormState) under its id. */
export const SECURITY_FORMS = {
  password: 'password',
  everywhere: 'sign-out-everywhere',
  beginTwoFactor: 'two-factor',
  confirmTwoFactor: 'two-factor-confirm',
  recoveryCodes: 'recovery-codes',
  removeTwoFactor: 'two-factor-remove',
  addPasskey: 'passkey-add',
  removePasskey: 'passkey-remove',
  requireTwoFactor: 'require-two-factor',
} as const;
export type SecurityForms = Partial<Record<keyof typeof SECURITY_FORMS, FormState>>;

/** What the page says once after a form: the key of the section it is about. */
export const SECURITY_NOTICES = { password: 'password', twoFactor: 'two-factor', passkeys: 'passkeys', organization: 'organization' } as const;
export type SecurityNotices = Partial<Record<keyof typeof SECURITY_NOTICES, Notice>>;

const passkeyColumns = (frame: Frame, removeForm: FormState | undefined) => ({
  head: { label: 'Name', cell: (passkey: Passkey) => escapeHtml(passkey.name), kind: 'text' as const },
  row: () => '',
  columns: [
    { label: 'Added', cell: (passkey: Passkey) => time(passkey.createdAt) },
    { label: 'Last used', cell: (passkey: Passkey) => time(passkey.lastUsedAt) },
    { label: 'Synced', cell: (passkey: Passkey) => (passkey.backedUp ? 'Yes' : 'No') },
    {
      label: 'Remove',
      cell: (passkey: Passkey) => {
        const form = formOf(SECURITY_FORMS.removePasskey, removeForm?.values.id === passkey.credentialId ? removeForm : undefined);
        return `${form.alert()}${postForm({
          action: `${securityPagePath(frame.urls)}/passkeys/${encodeURIComponent(passkey.credentialId)}/remove`,
          frame,
          kind: 'inline',
          fields: `<input type="hidden" name="id" value="${escapeHtml(passkey.credentialId)}"><span class="visually-hidden">${escapeHtml(passkey.name)}</span>`,
          button: 'Remove',
        })}`;
      },
    },
  ],
});

function twoFactorSection(frame: Frame, view: SecurityView['twoFactor'], forms: SecurityForms, notice: Notice | undefined): string {
  const path = securityPagePath(frame.urls);
  const shown = noticeBox(notice, RECOVERY_CODES);
  if (view.enabled) {
    const remove = formOf(SECURITY_FORMS.removeTwoFactor, forms.removeTwoFactor);
    const removeFields = `<input hidden name="username" autocomplete="username" value="${escapeHtml(frame.person.email)}">
${remove.field({ name: 'password', label: 'Password', type: 'password', attributes: 'autocomplete="current-password" required' })}`;
    const recovery = formOf(SECURITY_FORMS.recoveryCodes, forms.recoveryCodes);
    return `${shown}
<p>${badge('On', 'good')} since ${time(view.enabledAt)}. Signing in asks for a code of your authenticator app after your password. ${view.recoveryCodesLeft} recovery code${view.recoveryCodesLeft === 1 ? '' : 's'} left.</p>
${recovery.alert()}
${postForm({ action: `${path}/recovery-codes`, frame, kind: 'act', fields: '<p class="note">New recovery codes replace every old one; they are shown once.</p>', button: 'Make new recovery codes' })}
${remove.alert()}
${postForm({ action: `${path}/two-factor/remove`, frame, kind: 'act', fields: `<p class="note">Turning it off asks for your password; your recovery codes stop working.</p>\n${removeFields}`, button: 'Turn two-factor off' })}`;
  }
  if (view.pending) {
    const confirm = formOf(SECURITY_FORMS.confirmTwoFactor, forms.confirmTwoFactor);
    const problem = forms.confirmTwoFactor?.problem;
    return `${shown}
${enrolmentDetails(view.pending)}
<p class="note">This key waits for its code until ${time(view.pending.expiresAt)}.</p>
${problem && problem.attribute !== 'code' ? confirm.alert() : ''}
${postForm({ action: `${path}/two-factor/confirm`, frame, fields: codeField({ id: 'enrol-code', recovery: false, error: problem?.attribute === 'code' ? problem.detail : undefined }), button: 'Turn on two-factor', primary: true })}`;
  }
  const begin = formOf(SECURITY_FORMS.beginTwoFactor, forms.beginTwoFactor);
  return `${shown}
<p>${badge('Off')} Two-factor authentication asks for a code of an authenticator app after your password.</p>
${begin.alert()}
${postForm({ action: `${path}/two-factor`, frame, kind: 'act', button: 'Set up two-factor', primary: true })}`;
}

function passkeySection(frame: Frame, passkeys: Passkey[], forms: SecurityForms, notice: Notice | undefined): string {
  const add = formOf(SECURITY_FORMS.addPasskey, forms.addPasskey);
  const path = securityPagePath(frame.urls);
  const nameField = add.field({
    name: 'name',
    label: 'Name',
    hint: `Which device or password manager holds it: 1 to ${PASSKEY_NAME_MAX_LENGTH} characters.`,
    attributes: `maxlength="${PASSKEY_NAME_MAX_LENGTH}" required autocomplete="off"`,
  });
  return `${noticeBox(notice)}
<p class="note">A passkey signs you in without your password or a code: it counts as both factors.</p>
${passkeys.length ? table(passkeyColumns(frame, forms.removePasskey), passkeys, 'Your passkeys, oldest first.') : '<p>No passkeys yet.</p>'}
${add.alert()}
${passkeyForm({ kind: 'register', action: `${path}/passkeys`, options: `${path}/passkeys/options`, fields: `${actionFields(frame)}\n${nameField}\n${add.fieldError('credential')}`, button: 'Add a passkey' })}
<noscript><p class="note">Adding a passkey needs JavaScript.</p></noscript>`;
}

function organizationSection(frame: Frame, organization: { requireTwoFactor: boolean }, form: FormState | undefined, notice: Notice | undefined): string {
  const require = formOf(SECURITY_FORMS.requireTwoFactor, form);
  const next = organization.requireTwoFactor ? 'off' : 'on';
  return `${noticeBox(notice)}
<p>${organization.requireTwoFactor ? badge('Required', 'good') : badge('Not required')} Two-factor authentication for everyone in the organization. When it is required, a person without a second factor sets up two-factor right after their password, before any other page, and nobody can remove their last second factor.</p>
${require.alert()}
${postForm({
  action: `${securityPagePath(frame.urls)}/require-two-factor`,
  frame,
  kind: 'act',
  fields: `<input type="hidden" name="require" value="${next}">${require.fieldError('require')}`,
  button: organization.requireTwoFactor ? 'Stop requiring two-factor' : 'Require two-factor for everyone',
})}`;
}

/**
 * A person's security (product-decisions §16): their password (the current one and a new one;
 * every other session ends), two-factor (set up with a QR code, confirmed by a code; recovery
 * codes shown once, made anew; turned off with the password), passkeys (added with a name,
 * removed), their sessions (OWASP ASVS 5.0 V7.5.2: seen and ended) and signing out everywhere;
 * and for the owner (`security:manage`) the organization's "require two-factor".
 */
export function securityPage(frame: Frame, view: SecurityView, forms: SecurityForms, notices: SecurityNotices = {}): string {
  const { urls } = frame;
  const password = formOf(SECURITY_FORMS.password, forms.password);
  const { minLength, maxLength } = LIMITS.password;
  // The person's email as the form's username, for password managers (hidden: it is not asked).
  const passwordFields = `<input hidden name="username" autocomplete="username" value="${escapeHtml(frame.person.email)}">
${password.field({ name: 'current_password', label: 'Current password', type: 'password', attributes: 'autocomplete="current-password" required' })}
${password.field({
  name: 'new_password',
  label: 'New password',
  type: 'password',
  hint: `${minLength} to ${maxLength} characters, anything you like but your email address.`,
  attributes: `autocomplete="new-password" minlength="${minLength}" maxlength="${maxLength}" required`,
})}`;
  const everywhere = formOf(SECURITY_FORMS.everywhere, forms.everywhere);
  return signedInPage(
    frame,
    'Security',
    `${noticeBox(notices.password)}
${titledSection('password', 'Password', `<p class="note">Changing it signs you out of every other browser.</p>
${password.alert()}
${postForm({ action: `${securityPagePath(urls)}/password`, frame, fields: passwordFields, button: 'Change password', primary: true })}`)}
${titledSection('two-factor', 'Two-factor authentication', twoFactorSection(frame, view.twoFactor, forms, notices.twoFactor))}
${titledSection('passkeys', 'Passkeys', passkeySection(frame, view.passkeys, forms, notices.passkeys))}
${titledSection(
  'sessions',
  'Sessions',
  `${table(sessionColumns(view.currentSession), view.sessions, 'Where you are signed in, newest first. A session ends after 30 minutes without a request, or 12 hours after signing in.')}
${everywhere.alert()}
${postForm({ action: `${securityPagePath(urls)}/sign-out-everywhere`, frame, kind: 'act', fields: '<p class="note">Ends every session above, this one included.</p>', button: 'Sign out everywhere' })}`,
)}
${view.organization && may(frame, 'security:manage') ? titledSection('organization', 'Organization', organizationSection(frame, view.organization, forms.requireTwoFactor, notices.organization)) : ''}
${passkeyScriptTag(urls.dashboard)}`,
    '/security',
  );
}

/** Said once on the security page after a password change. */
export const PASSWORD_CHANGED: Notice = { key: SECURITY_NOTICES.password, text: 'Your password is changed. Every other session has ended.' };
