import { dashboardApiKeys } from '../../shared/api/pages';
import { apiKeyPorts, dashboardSessionServices } from '../../shared/services/dashboard';
import { apiKeysPage, API_KEYS_NOTICE } from '../../shared/dashboard/api-keys';
import { dashboardPage, SCRIPT_FILE_PAGE_HEADERS } from '../../shared/dashboard/http';
import { keyManagerOf } from '../../shared/dashboard/key-manager';

const sessions = dashboardSessionServices();
const ports = apiKeyPorts();

/**
 * GET /dashboard/api-keys: the organization's keys of the page's mode (live mode needs
 * `api_key:live`: 403 for a developer), a refused form again, and once after a creation or a
 * roll the new key's token, with its Copy button.
 */
export const handler = dashboardPage(dashboardApiKeys, sessions, async (request) => {
  const manager = keyManagerOf(request);
  const [keys, acceptors, people] = await Promise.all([ports.keys.list(manager), ports.acceptors(manager.orgId), ports.people(manager.orgId)]);
  const names = new Map(people.map((person) => [person.userId, 'email' in person && typeof person.email === 'string' ? person.email : person.userId]));
  const forms = { create: request.formState('create-key'), roll: request.formState('roll-key'), revoke: request.formState('revoke-key') };
  // The policy lets the page load the copy script of a token it shows.
  return { status: 200, headers: SCRIPT_FILE_PAGE_HEADERS, html: apiKeysPage(request, { keys, acceptors, people: names }, forms, request.notice(API_KEYS_NOTICE)) };
});
