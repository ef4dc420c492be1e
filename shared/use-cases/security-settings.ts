import { hasSecondFactor, LastSecondFactorError, type TeamUser } from '../domain/team';
import { BusinessRuleError, NotFoundError } from '../errors';

/**
 * The organization's "require two-factor" (product-decisions §16) and what it asks of its
 * people: a person without a second factor enrols right after their password (the sign-in's
 * `secondFactorStep`), and nobody removes their last second factor while it is required.
 */

/** The organization's security settings as the sign-in reads them. */
export type OrganizationLookup = (orgId: string) => Promise<{ requireTwoFactor?: boolean } | undefined>;

/**
 * Whether removing one of the person's second factors (`removing`) must keep another: their
 * organization requires two-factor. Refuses at once (LastSecondFactorError, 422) when it is their
 * last as this request read them; the removal's own write checks again, on the person's item, so
 * that a removal of their other factor at the same moment (another tab) cannot also pass.
 */
export async function requiresSecondFactor(organization: OrganizationLookup, user: TeamUser, removing: 'totp' | 'passkey'): Promise<boolean> {
  const required = (await organization(user.orgId))?.requireTwoFactor === true;
  const left = {
    twoFactorEnabledAt: removing === 'totp' ? undefined : user.twoFactorEnabledAt,
    passkeyCount: (user.passkeyCount ?? 0) - (removing === 'passkey' ? 1 : 0),
  };
  if (required && !hasSecondFactor(left)) throw new LastSecondFactorError();
  return required;
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
