import type { BrowserContext, Page } from 'playwright-core';

/**
 * Chromium's virtual authenticator (DevTools protocol, `WebAuthn` domain) on a page: a platform
 * authenticator with discoverable credentials that verifies its user (as a fingerprint or a PIN
 * would), so that `navigator.credentials.create()` and `.get()` run the real ceremonies in the
 * browser without a person. `credentials()` lists what it holds.
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page) {
  const session = await context.newCDPSession(page);
  await session.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await session.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    authenticatorId,
    credentials: async () => (await session.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
    /** Whether the authenticator verifies its user from now on (false: as if the fingerprint did not match). */
    setUserVerified: (isUserVerified: boolean) => session.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified }),
    remove: () => session.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }),
  };
}
