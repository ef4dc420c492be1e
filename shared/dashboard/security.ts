import type { PublicUrls } from '../config';
import { LIMITS } from '../limits';
import { escapeHtml } from '../http/page';
import type { ListedSession } from '../domain/team';
import { formOf, type FormState } from './forms';
import { code, noticeBox, postForm, signedInPage, table, textOrDash, time, titledSection, type Frame, type Notice } from './html';

/** The person's own security page. */
export const securityPagePath = (urls: PublicUrls) => `${urls.dashboard}/security`;

/** What the security page shows of each session: this browser marked, where and when it signed in, its last request. */
const sessionColumns = (current: string) => ({
  head: { label: 'Signed in', cell: (session: ListedSession) => `${time(session.createdAt)}${session.idHash === current ? ' <span class="badge good">This browser</span>' : ''}` },
  row: () => '',
  columns: [
    { label: 'Last request', cell: (session: ListedSession) => time(session.lastSeenAt) },
    { label: 'Browser', cell: (session: ListedSession) => textOrDash(session.userAgent), kind: 'text' as const },
    { label: 'Address', cell: (session: ListedSession) => (session.ip ? code(session.ip) : '—') },
  ],
});

/**
 * A person's security (product-decisions §16): their password (the current one and a new one;
 * every other session ends), their sessions (OWASP ASVS 5.0 V7.5.2: seen and ended), and signing
 * out everywhere. `currentSession` is this browser's session (its store key).
 */
export function securityPage(frame: Frame, view: { sessions: ListedSession[]; currentSession: string }, forms: { password?: FormState; everywhere?: FormState }, notice?: Notice): string {
  const { urls } = frame;
  const password = formOf('password', forms.password);
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
  const everywhere = formOf('sign-out-everywhere', forms.everywhere);
  return signedInPage(
    frame,
    'Security',
    `${noticeBox(notice)}
${titledSection('password', 'Password', `<p class="note">Changing it signs you out of every other browser.</p>
${password.alert()}
${postForm({ action: `${securityPagePath(urls)}/password`, frame, fields: passwordFields, button: 'Change password', primary: true })}`)}
${titledSection(
  'sessions',
  'Sessions',
  `${table(sessionColumns(view.currentSession), view.sessions, 'Where you are signed in, newest first. A session ends after 30 minutes without a request, or 12 hours after signing in.')}
${everywhere.alert()}
${postForm({ action: `${securityPagePath(urls)}/sign-out-everywhere`, frame, kind: 'act', fields: '<p class="note">Ends every session above, this one included.</p>', button: 'Sign out everywhere' })}`,
)}`,
    '/security',
  );
}

/** Said once on the security page after a password change. */
export const PASSWORD_CHANGED: Notice = { key: 'password', text: 'Your password is changed. Every other session has ended.' };
