import type { PublicUrls } from '../config';
import type { TeamUser } from '../domain/team';
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
export function teamPage(frame: Frame, members: TeamUser[], forms: TeamForms, notice?: Notice): string {
  const people = members.filter((user) => user.status === 'active');
  const asked = new Set<string>();
  const watched: TeamForms = { state: (form) => (asked.add(form), forms.state(form)) };
  const body = `${titledSection('members', 'Members', table(memberTable(frame, watched), people, 'The people of this organization, oldest first.'))}
${may(frame, 'team:transfer_ownership') ? handover(frame, people, watched.state('ownership')) : ''}`;
  const unshown = [...people.flatMap((user) => [`role-${user.userId}`, `remove-${user.userId}`]), 'ownership']
    .filter((form) => !asked.has(form))
    .map((form) => forms.state(form)?.problem)
    .filter((problem) => problem !== undefined);
  const alerts = unshown.map((problem) => `<p role="alert">${escapeHtml(problem.detail)}</p>`).join('');
  return signedInPage(frame, 'Team', `${noticeBox(notice)}${alerts}\n${body}`, '/team');
}
