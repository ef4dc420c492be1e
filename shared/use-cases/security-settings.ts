import { hasSecondFactor, type TeamUser } from '../domain/team';
import { BusinessRuleError, NotFoundError } from '../errors';

/**
 * The organization's "require two-factor" (product-decisions §16) and what it asks of its
 * people: a person without a second factor enrols right after their password (the sign-in's
 * `secondFactorStep`), and nobody removes their last second factor while it is required.
 */

/** The organization's security settings as the sign-in reads them. */
export type OrganizationLookup = (orgId: string) => Promise<{ requireTwoFactor?: boolean } | undefined>;

export const TWO_FACTOR_REQUIRED = 'Your organization requires two-factor authentication: add a passkey or another second factor before removing this one';

/**
 * Refuses (422) removing one of the person's second factors (`removing`) when it is their last
 * and their organization requires one. Read from the person as this request read them: a
 * concurrent removal of their other factor in another tab may pass; the next sign-in then asks
 * them to enrol, as for anyone without one.
 */
export async function requireFactorLeft(organization: OrganizationLookup, user: TeamUser, removing: 'totp' | 'passkey'): Promise<void> {
  const left = {
    twoFactorEnabledAt: removing === 'totp' ? undefined : user.twoFactorEnabledAt,
    passkeyCount: (user.passkeyCount ?? 0) - (removing === 'passkey' ? 1 : 0),
  };
  if (!hasSecondFactor(left) && (await organization(user.orgId))?.requireTwoFactor) throw new BusinessRuleError(TWO_FACTOR_REQUIRED);
}

/**
 * The owner turns "require two-factor" on or off. Turning it on needs a second factor of their
 * own first (422), as GitHub asks of an organization's owner: else their own next sign-in would
 * begin with an enrolment they did not expect.
 */
export async function setRequireTwoFactor(
  settings: { setRequireTwoFactor(orgId: string, required: boolean): Promise<boolean> },
  user: TeamUser,
  required: boolean,
): Promise<void> {
  if (required && !hasSecondFactor(user)) throw new BusinessRuleError('Turn on two-factor authentication or add a passkey for yourself first', 'require');
  if (!(await settings.setRequireTwoFactor(user.orgId, required))) throw new NotFoundError('No such organization');
}
