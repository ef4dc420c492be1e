import { SCOPES } from '../../shared/auth/principal';
import { dashboardCreateApiKey } from '../../shared/api/pages';
import { apiKeyPorts, dashboardFormPorts } from '../../shared/services/dashboard';
import { apiKeysPagePath, scopeField, tokenNotice } from '../../shared/dashboard/api-keys';
import { defined, optionalText } from '../../shared/dashboard/forms';
import { dashboardForm } from '../../shared/dashboard/http';
import { keyManagerOf } from '../../shared/dashboard/key-manager';

const ports = dashboardFormPorts();
const { keys } = apiKeyPorts();

/**
 * POST /dashboard/api-keys: a new key of the page's mode with the name, scopes (a checkbox each)
 * and acceptor given, the person its creator. 303 back to the keys page, which shows its token
 * once; or the form again with the refusal.
 */
export const handler = dashboardForm(ports, dashboardCreateApiKey, {
  body: (fields) => defined({ name: fields.name ?? '', scopes: SCOPES.filter((scope) => fields[scopeField(scope)] !== undefined), acceptor_id: optionalText(fields.acceptor_id) }),
  submit: async (request) => {
    const { body } = request;
    const key = await keys.create(keyManagerOf(request), { name: body.name, scopes: body.scopes, ...(body.acceptor_id ? { acceptorId: body.acceptor_id } : {}) });
    return { location: apiKeysPagePath(request), notice: tokenNotice(`Key ${key.id} created. Copy its token now: it is not shown again.`, key.token) };
  },
  home: (_path, _fields, urls) => ({ page: apiKeysPagePath({ urls }), form: 'create-key' }),
});
