import type { Email } from '../domain/email';
import type { TeamMessages } from '../domain/team';
import { ROLE_NAMES } from '../domain/team-roles';
import { escapeHtml } from '../http/page';

/**
 * The emails the dashboard sends people (product-decisions §16), each in plain text and HTML
 * with the same words: who, what, the link and how long it works. No image, no tracking, no
 * secret but the link itself.
 */

const paragraphs = (lines: string[]) => lines.map((line) => `<p>${line}</p>`).join('\n');

function message(to: string, subject: string, lines: string[], link: { href: string; label: string }): Email {
  const text = [...lines, `${link.label}: ${link.href}`].join('\n\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #1d2330; max-width: 36rem;">
${paragraphs(lines.map(escapeHtml))}
<p><a href="${escapeHtml(link.href)}" style="color: #1d4ed8;">${escapeHtml(link.label)}</a></p>
<p style="color: #555e6e; font-size: .9rem;">Or copy this address into your browser: ${escapeHtml(link.href)}</p>
</body></html>`;
  return { to, subject, text, html };
}

export const teamMessages: TeamMessages = {
  invitation: ({ to, organization, role, invitedBy, link }) =>
    message(
      to,
      `Join ${organization} on Payment operations`,
      [
        `${invitedBy} invites you to the dashboard of ${organization} as ${ROLE_NAMES[role]}.`,
        'Open the link to choose your name and password. It works once, for 7 days.',
        'If you were not expecting this, ignore this email: nothing happens without the link.',
      ],
      { href: link, label: 'Accept the invitation' },
    ),
  passwordReset: ({ to, link }) =>
    message(
      to,
      'Reset your Payment operations password',
      [
        'Someone, hopefully you, asked to reset the password of your Payment operations dashboard.',
        'Open the link to choose a new one. It works once, for an hour, and signs you out everywhere.',
        'If you did not ask, ignore this email: your password stays as it is.',
      ],
      { href: link, label: 'Choose a new password' },
    ),
};
