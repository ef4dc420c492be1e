import type { PublicUrls } from '../config';
import { escapeHtml } from '../http/page';
import { passkeyScriptTag } from './passkey-script';
import { code, dashboardDocument, tokenField, type Notice, type SecretView } from './html';

/**
 * What the second factor looks like on the pages that ask for it or set it up
 * (product-decisions §16): the Code form of a sign-in, two-factor's enrolment (its QR code and
 * its key as text), the recovery codes shown once, and the passkey forms the passkey script
 * drives (shared/dashboard/passkey-script.ts).
 */

/** Where a pending sign-in is asked for its second factor (or its enrolment) and posts it. */
export const secondFactorPath = (urls: PublicUrls) => `${urls.dashboard}/sign-in/second-factor`;

/** An enrolment as a page shows it: the QR code of its otpauth URI (inline SVG) and the key as text, for typing into an app. */
export interface EnrolmentView {
  qrSvg: string;
  secretText: string;
  expiresAt: string;
}

/** The QR code and the key as text, with what to do with them. */
export const enrolmentDetails = (enrolment: EnrolmentView) => `<p>Scan this QR code with an authenticator app (1Password, Google Authenticator, Microsoft Authenticator…), then type the 6-digit code it shows.</p>
<figure class="qr">${enrolment.qrSvg}</figure>
<p>Or add this key to the app by hand: <code class="key" id="totp-secret">${escapeHtml(enrolment.secretText)}</code></p>`;

/** The code field of a form that asks for a second factor; `recovery`: a recovery code is accepted too. */
export function codeField(options: { id: string; recovery: boolean; error?: string }): string {
  const described = [`${options.id}-hint`, ...(options.error ? [`${options.id}-error`] : [])].join(' ');
  const hint = options.recovery ? 'The 6-digit code of your authenticator app, or one of your recovery codes.' : 'The 6-digit code your authenticator app shows now.';
  return `<label for="${options.id}">Code</label>
<input id="${options.id}" name="code" type="text" inputmode="${options.recovery ? 'text' : 'numeric'}" autocomplete="one-time-code" spellcheck="false" maxlength="64" required aria-describedby="${described}"${options.error ? ' aria-invalid="true"' : ''}>
<p class="hint" id="${options.id}-hint">${hint}</p>
${options.error ? `<p class="field-error" id="${options.id}-error">${escapeHtml(options.error)}</p>` : ''}`;
}

/**
 * A form the passkey script sends with a credential (hidden until the script finds WebAuthn):
 * `kind` its ceremony, `action` where it posts, `options` where the script asks for the
 * ceremony's options; `fields` its other fields (the token, the name).
 */
export const passkeyForm = (form: { kind: 'register' | 'sign-in'; action: string; options: string; fields: string; button: string; primary?: boolean; className?: string }) =>
  `<form class="${form.className ?? 'stacked'}" method="post" action="${escapeHtml(form.action)}" data-passkey="${form.kind}" data-passkey-options="${escapeHtml(form.options)}" hidden>
${form.fields}<input type="hidden" name="credential" value="">
<p role="alert" data-passkey-status></p>
<button${form.primary ? ' class="primary"' : ''} type="submit">${escapeHtml(form.button)}</button>
</form>`;

/** `Sign in with a passkey`: no email asked, the authenticator offers the dashboard's passkeys (the sign-in cookie's token). */
export const passkeySignInForm = (urls: PublicUrls, signInToken: string, button = 'Sign in with a passkey') =>
  `${passkeyForm({ kind: 'sign-in', action: `${urls.dashboard}/sign-in/passkey`, options: `${urls.dashboard}/sign-in/passkey/options`, fields: tokenField(signInToken), button, primary: true, className: 'signin' })}
<noscript><p class="note">Signing in with a passkey needs JavaScript.</p></noscript>
${passkeyScriptTag(urls.dashboard)}`;

/** Signing in with a passkey, the sign-in form's other way in: a passkey counts as both factors (§16). */
export function passkeySignInPage(urls: PublicUrls, view: { signInToken: string; error?: string }): string {
  return dashboardDocument(
    'Sign in with a passkey',
    `<h1>Sign in with a passkey</h1>
${view.error ? `<p role="alert" id="signin-error">${escapeHtml(view.error)}</p>` : ''}
<p class="note">A passkey is registered on the Security page of the dashboard, once signed in with your email and password.</p>
${passkeySignInForm(urls, view.signInToken)}
<p class="signin-links"><a href="${escapeHtml(urls.dashboard)}">Sign in with email and password</a></p>`,
    false,
  );
}

/**
 * The second step of a sign-in (§16). `code`: the Code form (a TOTP code or a recovery code)
 * for a person with two-factor, and their passkey for one with passkeys. `enrol`: the
 * organization requires two-factor and the person has none: its enrolment, confirmed by a code,
 * before any other page. Its forms carry the token of the pending sign-in's cookie; the passkey
 * form that of the sign-in cookie it comes with.
 */
export function secondFactorPage(
  urls: PublicUrls,
  view: { formToken: string; signInToken: string; error?: string } & ({ step: 'code'; totp: boolean; passkeys: boolean } | { step: 'enrol'; enrolment: EnrolmentView }),
): string {
  const codeForm = (recovery: boolean, button: string) => `<form class="signin" method="post" action="${escapeHtml(secondFactorPath(urls))}" novalidate>
${codeField({ id: 'code', recovery, error: view.error })}
${tokenField(view.formToken)}
<button class="primary" type="submit">${button}</button>
</form>`;
  const startAgain = `<p class="signin-links"><a href="${escapeHtml(urls.dashboard)}">Sign in again</a></p>`;
  if (view.step === 'enrol') {
    return dashboardDocument(
      'Set up two-factor authentication',
      `<h1>Set up two-factor authentication</h1>
<p>Your organization requires two-factor authentication: set it up to continue.</p>
${enrolmentDetails(view.enrolment)}
${codeForm(false, 'Turn on two-factor')}
${startAgain}`,
      false,
    );
  }
  const ways = [
    ...(view.totp ? [codeForm(true, 'Continue')] : []),
    ...(view.passkeys ? [`${view.totp ? '<p class="note">Or use one of your passkeys:</p>\n' : ''}${passkeySignInForm(urls, view.signInToken, 'Use a passkey')}`] : []),
  ];
  return dashboardDocument(
    'Two-factor authentication',
    `<h1>Two-factor authentication</h1>
<p>Your password is right: finish signing in with ${view.totp ? 'your authenticator app' : 'one of your passkeys'}.</p>
${!view.totp && view.error ? `<p role="alert" id="code-error">${escapeHtml(view.error)}</p>` : ''}
${ways.join('\n')}
${startAgain}`,
    false,
  );
}

/** Recovery codes as a notice shows them, once (its secret: the codes, a space between each): each signs in once in place of a code. */
export const RECOVERY_CODES: SecretView = {
  shown: (secret) => `
<ol class="recovery-codes" aria-label="Recovery codes">${secret.split(' ').map((recovery) => `<li>${code(recovery)}</li>`).join('')}</ol>
<p class="hint">Keep them somewhere safe, away from your authenticator: each one signs you in once when you cannot use it. They are not shown again, not even on this page after a reload.</p>`,
  shownBefore: '\n<p class="hint">The recovery codes were shown once, when this form was first answered, and are not shown again. If they were not kept, make new ones.</p>',
};

/** Said once on the Security page when two-factor is turned on, with its recovery codes. */
export const twoFactorTurnedOn = (recoveryCodes: string[]): Notice => ({
  key: 'two-factor',
  text: 'Two-factor authentication is on. These are your recovery codes:',
  secret: recoveryCodes.join(' '),
});

/** Said once on the Security page when new recovery codes replace the old. */
export const recoveryCodesMade = (recoveryCodes: string[]): Notice => ({
  key: 'two-factor',
  text: 'New recovery codes replace every old one. These are your recovery codes:',
  secret: recoveryCodes.join(' '),
});
