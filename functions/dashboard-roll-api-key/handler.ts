import { dashboardRollApiKey } from '../../shared/api/pages';
import { apiKeyPorts, dashboardFormPorts } from '../../shared/services/dashboard';
import { apiKeysPagePath, tokenNotice } from '../../shared/dashboard/api-keys';
import { dashboardForm } from '../../shared/dashboard/http';
import { keyManagerOf } from '../../shared/dashboard/key-manager';

const ports = dashboardFormPorts();
const { keys } = apiKeyPorts();

/**
 * POST /dashboard/api-keys/{id}/roll: a new key like this one, the person its creator; the old
 * one works for the overlap chosen, then 401. 303 back to the keys page, which shows the new
 * token once.
 */
export const handler = dashboardForm(ports, dashboardRollApiKey, {
  body: (fields) => ({ expires_in: fields.expires_in }),
  submit: async (request) => {
    const rolled = await keys.roll(keyManagerOf(request), request.path.id, request.body.expires_in);
    return { location: apiKeysPagePath(request), notice: tokenNotice(`Key ${rolled.replaced} rolled: ${rolled.id} replaces it. Copy its token now: it is not shown again.`, rolled.token) };
  },
  home: (_path, _fields, urls) => ({ page: apiKeysPagePath({ urls }), form: 'roll-key' }),
});
