import { dashboardRevokeApiKey } from '../../shared/api/pages';
import { apiKeyPorts, dashboardFormPorts } from '../../shared/services/dashboard';
import { apiKeysPagePath, API_KEYS_NOTICE } from '../../shared/dashboard/api-keys';
import { dashboardForm } from '../../shared/dashboard/http';
import { keyManagerOf } from '../../shared/dashboard/key-manager';

const ports = dashboardFormPorts();
const { keys } = apiKeyPorts();

/** POST /dashboard/api-keys/{id}/revoke: the key stops working at once (401). 303 back to the keys page. */
export const handler = dashboardForm(ports, dashboardRevokeApiKey, {
  body: () => undefined,
  submit: async (request) => {
    await keys.revoke(keyManagerOf(request), request.path.id);
    return { location: apiKeysPagePath(request), notice: { key: API_KEYS_NOTICE, text: `Key ${request.path.id} revoked: it no longer works.` } };
  },
  home: (_path, _fields, urls) => ({ page: apiKeysPagePath({ urls }), form: 'revoke-key' }),
});
