import { createOrganizationLookup } from '../db/directory-lookups';
import { createOrganizationSettings } from '../db/organization-settings';
import { once, processWiring } from './wiring';

/** The organization's security settings: read (what "require two-factor" asks of its people) and set (the owner's form). */
export const organizationSecurityPorts = /* @__PURE__ */ once(() => {
  const { db, tableName } = processWiring();
  return { organization: createOrganizationLookup(db, tableName), settings: createOrganizationSettings(db, tableName) };
});
