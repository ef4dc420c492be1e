import type { PublicUrls } from '../config';
import type { Invitation, TeamUser } from '../domain/team';
import { ASSIGNABLE_ROLES, ROLE_NAMES } from '../domain/team-roles';
import { escapeHtml } from '../http/page';
import { formOf, type FormState } from './forms';
import { badge, may, noticeBox, postForm, signedInPage, table, time, titledSection, type Frame, type Notice, type TableSpec } from './html';

/**
 * The team page (product-decisions §16): everyone sees the members; owners and admins change
 * their roles and remove them, the owner hands ownership to an admin. Each control is shown only
 * to a role that may use it, and never for the owner or oneself.
 */

export const teamPagePath = (urls: PublicUrls) => `${urls.dashboard}/team`;
const memberPath = (urls: PublicUrls, userId: string) => `${teamPagePath(urls)}/members/${encodeURIComponent(userId)}`;

/** The key of the team page's notices. */
export const TEAM_NOTICE = 'team';
/** The invite form's id on the page. */
export const INVITE_FORM = 'invite';
const invitationPath = (urls: PublicUrls, invitationId: string) => `${teamPagePath(urls)}/invitations/${encodeURIComponent(invitationId)}`;

/** What the team page says once an invitation went out (or could not). */
export const invitationNotice = (invitation: Invitation, sent: boolean) =>
  sent
    ? `An invitation is on its way to ${invitation.email}, as ${ROLE_NAMES[invitation.teamRole]}: its link works once, for 7 days.`
    : `The invitation to ${invitation.email} is saved, but its email could not be sent right now: send it again in a minute.`;

/** The forms of the page that may come back refused: each member's role and removal (by user id), the handover. */
export interface TeamForms {
  state(form: string): FormState | undefined;
}

/** A member's row: who, their role, their factors, their last sign-in; and, for owners and admins, what may be changed. */
function memberTable(frame: Frame, forms: TeamForms): TableSpec<TeamUser> {
  const manages = may(frame, 'team:manage');
  const self = frame.principal.actor.id;
  const manageable = (user: TeamUser) => manages && user.userId !== self && user.teamRole !== 'owner';
  return {
    row: (user) => ` data-id="${escapeHtml(user.userId)}"`,
    head: { label: 'Name', cell: (user) => `${escapeHtml(user.name)}${user.userId === self ? ' <span class="badge">You</span>' : ''}` },
    columns: [
      { label: 'Email', kind: 'text', cell: (user) => escapeHtml(user.email) },
      { label: 'Role', cell: (user) => escapeHtml(ROLE_NAMES[user.teamRole]) },
      { label: 'Two-factor', cell: (user) => (user.twoFactorEnabledAt ? badge('On', 'good') : badge('Off')) },
      { label: 'Passkeys', kind: 'num', cell: (user) => String(user.passkeyCount ?? 0) },
      { label: 'Last sign-in', cell: (user) => time(user.lastSignInAt) },
      ...(manages
        ? [
            {
              label: 'Manage',
              kind: 'list' as const,
              cell: (user: TeamUser) => (manageable(user) ? memberForms(frame, user, forms) : '<span class="note">—</span>'),
            },
          ]
        : []),
    ],
  };
}

/** A member's two forms: a new role (any but owner), and removal once confirmed. */
function memberForms(frame: Frame, user: TeamUser, forms: TeamForms): string {
  const { urls } = frame;
  const roleForm = formOf(`role-${user.userId}`, forms.state(`role-${user.userId}`) ?? { values: { role: user.teamRole } });
  const removeForm = formOf(`remove-${user.userId}`, forms.state(`remove-${user.userId}`));
  const options = ASSIGNABLE_ROLES.map((role) => [role, ROLE_NAMES[role]] as [string, string]);
  // Fields first: a form's alert shows only a problem none of its fields shows.
  const roleField = roleForm.field({ name: 'role', label: `Role of ${user.name}`, type: 'select', options });
  const removeField = removeForm.confirm(`Remove ${user.name} from the team: their sessions end and their API keys stop`);
  return `${roleForm.alert()}${postForm({ action: `${memberPath(urls, user.userId)}/role`, frame, kind: 'act', fields: roleField, button: 'Change role' })}
${removeForm.alert()}${postForm({ action: `${memberPath(urls, user.userId)}/remove`, frame, kind: 'act', fields: removeField, button: 'Remove' })}`;
}

/** A pending invitation's row: to whom, as what, until when; for owners and admins, send it again or revoke it. */
function invitationTable(frame: Frame, forms: TeamForms): TableSpec<Invitation> {
  const manages = may(frame, 'team:manage');
  return {
    row: (invitation) => ` data-id="${escapeHtml(invitation.id)}"`,
    head: { label: 'Email', cell: (invitation) => escapeHtml(invitation.email) },
    columns: [
      { label: 'Role', cell: (invitation) => escapeHtml(ROLE_NAMES[invitation.teamRole]) },
      { label: 'Sent', cell: (invitation) => time(invitation.createdAt) },
      { label: 'Link works until', cell: (invitation) => time(invitation.expiresAt) },
      ...(manages ? [{ label: 'Manage', kind: 'list' as const, cell: (invitation: Invitation) => invitationForms(frame, invitation, forms) }] : []),
    ],
  };
}

/** An invitation's two forms: sent again (a new link), and revoked once confirmed. */
function invitationForms(frame: Frame, invitation: Invitation, forms: TeamForms): string {
  const resendForm = formOf(`resend-${invitation.id}`, forms.state(`resend-${invitation.id}`));
  const revokeForm = formOf(`revoke-${invitation.id}`, forms.state(`revoke-${invitation.id}`));
  const revokeField = revokeForm.confirm(`Revoke the invitation of ${invitation.email}: its link stops working`);
  const path = invitationPath(frame.urls, invitation.id);
  return `${resendForm.alert()}${postForm({ action: `${path}/resend`, frame, kind: 'act', button: 'Send again' })}
${revokeForm.alert()}${postForm({ action: `${path}/revoke`, frame, kind: 'act', fields: revokeField, button: 'Revoke' })}`;
}

/** Owners' and admins' invite form: an email and a role (any but owner). */
function inviteForm(frame: Frame, state: FormState | undefined): string {
  const form = formOf(INVITE_FORM, state ?? { values: { role: 'viewer' } });
  const fields = `${form.field({ name: 'email', label: 'Email', type: 'email', attributes: 'autocomplete="off" spellcheck="false" required' })}
${form.field({ name: 'role', label: 'Role', type: 'select', options: ASSIGNABLE_ROLES.map((role) => [role, ROLE_NAMES[role]]) })}`;
  return `${form.alert()}${postForm({ action: `${teamPagePath(frame.urls)}/invitations`, frame, fields, button: 'Invite' })}`;
}

/** Everyone sees the pending invitations; owners and admins invite, send again and revoke. */
function invitationsSection(frame: Frame, invitations: Invitation[], forms: TeamForms): string {
  const invite = may(frame, 'team:manage')
    ? `<p class="note">The invitee gets an email with a link that works once, for 7 days, to choose a name and password.</p>\n${inviteForm(frame, forms.state(INVITE_FORM))}`
    : '';
  const pending = invitations.length
    ? table(invitationTable(frame, forms), invitations, 'Invitations not yet accepted, oldest first.')
    : '<p class="note">No pending invitations.</p>';
  return titledSection('invitations', 'Invitations', `${invite}\n${pending}`);
}

/** The owner's handover: to one of the admins, confirmed with the owner's password and a tick. */
function handover(frame: Frame, members: TeamUser[], state: FormState | undefined): string {
  const admins = members.filter((user) => user.teamRole === 'admin' && user.status === 'active');
  if (admins.length === 0) return titledSection('ownership', 'Ownership', '<p class="note">Ownership goes to an admin: make someone an admin first.</p>');
  const form = formOf('ownership', state ?? { values: { user_id: admins[0].userId } });
  // Fields first: the alert shows only a problem none of them shows.
  const fields = `<input hidden name="username" autocomplete="username" value="${escapeHtml(frame.person.email)}">
${form.field({ name: 'user_id', label: 'New owner', type: 'select', options: admins.map((user) => [user.userId, `${user.name} (${user.email})`]) })}
${form.field({ name: 'password', label: 'Your password', type: 'password', attributes: 'autocomplete="current-password" required' })}
${form.confirm('Hand ownership over: you become an admin, and only the new owner can hand it back')}`;
  return titledSection(
    'ownership',
    'Ownership',
    `<p class="note">There is always exactly one owner, who alone holds the organization's security settings.</p>
${form.alert()}
${postForm({ action: `${teamPagePath(frame.urls)}/ownership`, frame, fields, button: 'Hand ownership over' })}`,
  );
}

/**
 * Everyone's view of the team, with the controls the person's role allows. A refused form the
 * page no longer shows (posted for the owner or oneself, or the handover of one who is no longer
 * the owner) has its problem shown above the members.
 */
export function teamPage(frame: Frame, members: TeamUser[], invitations: Invitation[], forms: TeamForms, notice?: Notice): string {
  const people = members.filter((user) => user.status === 'active');
  const asked = new Set<string>();
  const watched: TeamForms = { state: (form) => (asked.add(form), forms.state(form)) };
  const body = `${titledSection('members', 'Members', table(memberTable(frame, watched), people, 'The people of this organization, oldest first.'))}
${invitationsSection(frame, invitations, watched)}
${may(frame, 'team:transfer_ownership') ? handover(frame, people, watched.state('ownership')) : ''}`;
  const unshown = [
    ...people.flatMap((user) => [`role-${user.userId}`, `remove-${user.userId}`]),
    ...invitations.flatMap((invitation) => [`resend-${invitation.id}`, `revoke-${invitation.id}`]),
    INVITE_FORM,
    'ownership',
  ]
    .filter((form) => !asked.has(form))
    .map((form) => forms.state(form)?.problem)
    .filter((problem) => problem !== undefined);
  const alerts = unshown.map((problem) => `<p role="alert">${escapeHtml(problem.detail)}</p>`).join('');
  return signedInPage(frame, 'Team', `${noticeBox(notice)}${alerts}\n${body}`, '/team');
}
