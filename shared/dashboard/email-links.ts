import type { PublicUrls } from '../config';
import type { Invitation } from '../domain/team';
import { ROLE_NAMES } from '../domain/team-roles';
import { escapeHtml } from '../http/page';
import { formOf, type FormProblem } from './forms';
import { dashboardDocument, tokenField } from './html';

/**
 * The pages a person reaches without a session, from the sign-in form or from an email
 * (product-decisions §16): `Forgot password?`, a password reset's link, an invitation's link.
 * Each form carries the token of its own sign-in cookie (shared/dashboard/http.ts
 * `signedOutFormAnswer`); a refused one comes back as the page again, its problem beside its
 * field, the password never.
 */

export const forgotPasswordPath = (urls: PublicUrls) => `${urls.dashboard}/forgot-password`;
export const invitationPagePath = (urls: PublicUrls, token: string) => `${urls.dashboard}/invitations/${token}`;
export const passwordResetPagePath = (urls: PublicUrls, token: string) => `${urls.dashboard}/password-reset/${token}`;

/** The sign-in form's link, under each of these pages' forms. */
const backToSignIn = (urls: PublicUrls) => `<p class="signin-links"><a href="${escapeHtml(urls.dashboard)}">Back to sign in</a></p>`;

const form = (action: string, formToken: string, fields: string, button: string) =>
  `<form class="signin" method="post" action="${escapeHtml(action)}" novalidate>
${fields}
${tokenField(formToken)}
<button class="primary" type="submit">${escapeHtml(button)}</button>
</form>`;

/**
 * `Forgot password?`: an email, and once sent, the one answer whoever asked (§16: it tells
 * nobody whether the address has a user).
 */
export function forgotPasswordPage(urls: PublicUrls, options: { formToken: string; sent?: boolean; problem?: FormProblem; email?: string }): string {
  const fields = formOf('forgot', { values: { email: options.email ?? '' }, problem: options.problem });
  const email = fields.field({ name: 'email', label: 'Email', type: 'email', attributes: 'autocomplete="username" spellcheck="false" required' });
  const sent = options.sent
    ? `<div class="notice" role="status"><p>If this email address belongs to a person of a dashboard, a link to choose a new password is on its way to it. The link works once, for an hour.</p></div>`
    : '';
  return dashboardDocument(
    'Reset your password',
    `<h1>Reset your password</h1>
${sent}
<p class="note">Enter the email address you sign in with: we send a link to choose a new password.</p>
${fields.alert()}
${form(forgotPasswordPath(urls), options.formToken, email, 'Send the link')}
${backToSignIn(urls)}`,
    false,
  );
}

/** A new password through a reset's link: for `email` (shown, and given to password managers), ending every session. */
export function passwordResetPage(urls: PublicUrls, token: string, options: { email: string; formToken: string; problem?: FormProblem }): string {
  const fields = formOf('reset', { values: {}, problem: options.problem });
  const password = fields.field({
    name: 'password',
    label: 'New password',
    type: 'password',
    hint: '12 to 128 characters, anything but your email address.',
    attributes: 'autocomplete="new-password" required',
  });
  return dashboardDocument(
    'Choose a new password',
    `<h1>Choose a new password</h1>
<p class="note">For ${escapeHtml(options.email)}. Every session of yours ends, and two-factor is asked at your next sign-in as before.</p>
${fields.alert()}
${form(passwordResetPagePath(urls, token), options.formToken, `<input hidden name="username" autocomplete="username" value="${escapeHtml(options.email)}">\n${password}`, 'Set the new password')}
${backToSignIn(urls)}`,
    false,
  );
}

/** An invitation's page: who invites whom to what, and the name and password the invitee chooses to join. */
export function invitationPage(
  urls: PublicUrls,
  token: string,
  options: { invitation: Invitation; organization: string; formToken: string; name?: string; problem?: FormProblem },
): string {
  const { invitation, organization } = options;
  const fields = formOf('join', { values: { name: options.name ?? '' }, problem: options.problem });
  const inputs = `<input hidden name="username" autocomplete="username" value="${escapeHtml(invitation.email)}">
${fields.field({ name: 'name', label: 'Your name', attributes: 'autocomplete="name" required' })}
${fields.field({ name: 'password', label: 'Password', type: 'password', hint: '12 to 128 characters, anything but your email address.', attributes: 'autocomplete="new-password" required' })}`;
  return dashboardDocument(
    `Join ${organization}`,
    `<h1>Join ${escapeHtml(organization)}</h1>
<p class="note">You are invited as ${escapeHtml(ROLE_NAMES[invitation.teamRole])}, with the email address ${escapeHtml(invitation.email)}. Choose your name and a password to sign in with.</p>
${fields.alert()}
${form(invitationPagePath(urls, token), options.formToken, inputs, 'Join the team')}
${backToSignIn(urls)}`,
    false,
  );
}

/** After a reset's link set a new password: it is set, every session ended, and the way back to sign in. */
export function passwordSetPage(urls: PublicUrls): string {
  return dashboardDocument(
    'Your password is set',
    `<h1>Your password is set</h1>
<div class="notice" role="status"><p>Your new password is set and every session of yours has ended. Sign in with it; two-factor is asked as before.</p></div>
<p class="signin-links"><a href="${escapeHtml(urls.dashboard)}">Sign in</a></p>`,
    false,
  );
}
