import type { StoredApiKey } from '../auth/key-store';
import { SCOPES } from '../auth/principal';
import { keyState, ROLL_OVERLAPS } from '../domain/api-keys';
import type { Acceptor } from '../db/directory-lookups';
import { escapeHtml } from '../http/page';
import { copyScriptFor } from './copy-script';
import { formOf, type FormState } from './forms';
import { badge, code, copyableSecret, noticeBox, postForm, signedInPage, table, textOrDash, time, titledSection, type Frame, type Notice, type TableSpec } from './html';

/**
 * The API keys page (product-decisions §17): the organization's keys of the page's mode (never a
 * token), the form that creates one (its token shown once, by the notice after it, with a Copy
 * button the copy script drives), and on each key that still works its roll and revoke forms.
 */

export const apiKeysPagePath = (frame: Pick<Frame, 'urls'>) => `${frame.urls.dashboard}/api-keys`;

/** The key the page's notices are addressed to. */
export const API_KEYS_NOTICE = 'api-keys';

/** A key's token, said with the key's change. */
export const tokenNotice = (text: string, token: string): Notice => ({ key: API_KEYS_NOTICE, text, secret: token });

/** A key's token as the notice shows it: named for what it is, with a Copy button (product-decisions §17). */
const API_KEY_TOKEN = copyableSecret('API key token', 'If it was not kept, roll the key for a new one.', { copyButton: true });

/** The form fields of each scope's checkbox. */
export const scopeField = (scope: string) => `scope.${scope}`;

export interface ApiKeyForms {
  create?: FormState;
  roll?: FormState;
  revoke?: FormState;
}

function stateOf(key: StoredApiKey, now: Date): string {
  const state = keyState(key, now);
  if (state.state === 'active') return badge('active', 'good');
  if (state.state === 'expiring') return `${badge('expiring', 'warn')} at ${time(state.at)}`;
  return `${badge('revoked', 'bad')} ${time(state.at)}`;
}

/** The last use, to the minute. */
const lastUsed = (key: StoredApiKey) => (key.lastUsedAt ? time(`${key.lastUsedAt.slice(0, 16)}:00.000Z`) : 'Never');

export function apiKeysPage(frame: Frame, view: { keys: StoredApiKey[]; acceptors: Acceptor[]; people: Map<string, string> }, forms: ApiKeyForms, notice?: Notice): string {
  const now = new Date();
  const page = apiKeysPagePath(frame);
  const acceptorName = new Map(view.acceptors.map((acceptor) => [acceptor.id, acceptor.name]));
  const roll = formOf('roll-key', forms.roll ?? { values: { expires_in: '1 hour' } });
  const revoke = formOf('revoke-key', forms.revoke);
  const actions = (key: StoredApiKey) => {
    if (keyState(key, now).state === 'revoked') return '';
    const id = escapeHtml(key.keyId);
    const overlap = `<label class="visually-hidden" for="roll-${id}">Old key works</label><select id="roll-${id}" name="expires_in">${Object.keys(ROLL_OVERLAPS)
      .map((choice) => `<option value="${escapeHtml(choice)}"${choice === roll.value('expires_in') ? ' selected' : ''}>${choice === 'now' ? 'Stops now' : `Works ${escapeHtml(choice)}`}</option>`)
      .join('')}</select>`;
    return `${postForm({ action: `${page}/${key.keyId}/roll`, frame, kind: 'inline', fields: overlap, button: 'Roll' })}
${postForm({ action: `${page}/${key.keyId}/revoke`, frame, kind: 'inline', button: 'Revoke' })}`;
  };
  const spec: TableSpec<StoredApiKey> = {
    row: (key) => ` data-id="${escapeHtml(key.keyId)}"`,
    head: { label: 'Name', cell: (key) => `${textOrDash(key.name)}<br>${code(key.keyId)}` },
    columns: [
      { label: 'Scopes', kind: 'list', cell: (key) => key.scopes.map((scope) => code(scope)).join(' ') },
      { label: 'Acceptor', kind: 'text', cell: (key) => (key.acceptorId ? escapeHtml(acceptorName.get(key.acceptorId) ?? key.acceptorId) : 'All') },
      { label: 'Created', kind: 'text', cell: (key) => `${time(key.createdAt)}<br>by ${escapeHtml(view.people.get(key.creatorId) ?? key.creatorId)}` },
      { label: 'Last used', cell: lastUsed },
      { label: 'State', cell: (key) => stateOf(key, now) },
      { label: 'Actions', cell: actions },
    ],
  };
  const list =
    view.keys.length === 0
      ? `<p class="note">No ${frame.principal.mode}-mode API keys yet.</p>`
      : table(spec, view.keys, `The organization's ${frame.principal.mode}-mode API keys, newest first. Tokens are shown once, when a key is created or rolled.`);

  const create = formOf('create-key', forms.create ?? { values: {} });
  const scopes = `<fieldset><legend>Scopes</legend><div class="checks scopes">${SCOPES.map((scope) => create.field({ name: scopeField(scope), label: scope, type: 'checkbox' })).join('\n')}</div>${create.fieldError('scopes')}</fieldset>`;
  const createFields = `${create.field({ name: 'name', label: 'Name', hint: 'What the key is for, e.g. Web shop backend.', attributes: 'maxlength="100" autocomplete="off" required' })}
${scopes}
${create.field({ name: 'acceptor_id', label: 'Acceptor', type: 'select', options: [['', 'All acceptors'], ...view.acceptors.map((acceptor): [string, string] => [acceptor.id, acceptor.name])] })}`;

  return signedInPage(
    frame,
    'API keys',
    `${noticeBox(notice, API_KEY_TOKEN)}
${roll.alert()}${revoke.alert()}
${list}
${titledSection(
  'create-key-heading',
  `Create a ${frame.principal.mode}-mode key`,
  `<p class="note">The key's token is shown once, right after it is made. Rolling a key makes a new one like it; the old one keeps working for the time chosen.</p>
${create.alert()}
${postForm({ action: page, frame, fields: createFields, button: 'Create key', primary: true })}`,
)}${copyScriptFor(notice, frame.urls.dashboard)}`,
    '/api-keys',
  );
}
