import { randomUUID } from 'node:crypto';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { createDocumentClient } from '../../../shared/db/client';
import { createPasskeyStore } from '../../../shared/db/passkey-store';
import { RELYING_PARTY_NAME, type RelyingParty } from '../../../shared/domain/passkeys';
import { BusinessRuleError, InvalidRequestError, NotAuthenticatedError, NotFoundError } from '../../../shared/errors';
import { newId } from '../../../shared/ids';
import { webauthnCeremonies } from '../../../shared/services/passkeys';
import { passkeyUseCases } from '../../../shared/use-cases/passkeys';
import { personFactors, personInTable } from '../../support/people';
import { softAuthenticator } from '../../support/soft-authenticator';

/**
 * The passkey ceremonies on @simplewebauthn/server, with the table (through the contending
 * DynamoDB Local) and a software authenticator: registration and sign-in, challenges single-use,
 * bound to their browser, ceremony and user, and short-lived; user verification required.
 */
const endpoint = process.env.DYNAMODB_ENDPOINT!;
const db = createDocumentClient({ endpoint });
const tableName = `passkeys-${randomUUID()}`;
let clock = new Date();
const passkeys = passkeyUseCases({ passkeys: createPasskeyStore(db, tableName), ceremonies: webauthnCeremonies, now: () => clock });
const rp: RelyingParty = { id: 'localhost', name: RELYING_PARTY_NAME, origin: 'http://localhost:3000' };
const BROWSER = 'hash-of-the-browser-cookie';

beforeAll(() => ensureTable(endpoint, tableName));
afterAll(() => db.destroy());

const newUser = async () => ({ id: await personInTable(db, tableName), email: `${randomUUID().slice(0, 8)}@example.com`, name: 'Ada Lovelace' });

/** A sign-in as the dashboard makes one: the passkey the answer names, then the answer verified; the user's id. */
async function signInWithPasskey(answer: AuthenticationResponseJSON, relyingParty: RelyingParty, browser: string): Promise<{ userId: string }> {
  const found = await passkeys.registeredPasskey(answer);
  await passkeys.verifyPasskeySignIn(answer, found, relyingParty, browser);
  return { userId: found.userId };
}

async function registered(authenticator = softAuthenticator()) {
  const user = await newUser();
  const options = await passkeys.registrationOptions(user, rp, BROWSER);
  const passkey = await passkeys.registerPasskey(user, 'Laptop', authenticator.create(options, rp.origin), rp, BROWSER);
  return { user, passkey, authenticator };
}

describe('registration', () => {
  test('options ask for a discoverable credential with user verification, for the dashboard host; the credential is kept with its name', async () => {
    // Prepare
    const user = await newUser();
    const authenticator = softAuthenticator();
    // Act
    const options = await passkeys.registrationOptions(user, rp, BROWSER);
    const passkey = await passkeys.registerPasskey(user, '  Laptop  ', authenticator.create(options, rp.origin), rp, BROWSER);
    // Assess
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Payment operations' },
      user: { name: user.email, displayName: 'Ada Lovelace', id: Buffer.from(user.id).toString('base64url') },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      pubKeyCredParams: [{ alg: -7, type: 'public-key' }, { alg: -257, type: 'public-key' }],
    });
    expect(options.challenge.length).toBeGreaterThanOrEqual(43);
    expect(passkey).toMatchObject({ name: 'Laptop', counter: 0, transports: ['internal'], deviceType: 'multiDevice', backedUp: true });
    expect(await passkeys.listPasskeys(user.id)).toEqual([passkey]);
  });

  test('the user\'s passkeys are excluded from the next registration\'s options', async () => {
    const { user, passkey } = await registered();
    const options = await passkeys.registrationOptions(user, rp, BROWSER);
    expect(options.excludeCredentials).toEqual([{ id: passkey.credentialId, type: 'public-key', transports: ['internal'] }]);
  });

  test('a challenge answers one ceremony: the same answer twice is refused the second time', async () => {
    const user = await newUser();
    const response = softAuthenticator().create(await passkeys.registrationOptions(user, rp, BROWSER), rp.origin);
    await passkeys.registerPasskey(user, 'Laptop', response, rp, BROWSER);
    await expect(passkeys.registerPasskey(user, 'Laptop', response, rp, BROWSER)).rejects.toMatchObject({ constructor: BusinessRuleError, attribute: 'credential' });
  });

  test('refused, nothing kept: another browser, another user, another origin, no user verification, an expired challenge, no name', async () => {
    const attempt = async (change: { binding?: string; asUser?: Awaited<ReturnType<typeof newUser>>; origin?: string; authenticator?: ReturnType<typeof softAuthenticator>; minutesLater?: number; name?: string }) => {
      const user = await newUser();
      clock = new Date();
      const options = await passkeys.registrationOptions(user, rp, BROWSER);
      const response = (change.authenticator ?? softAuthenticator()).create(options, change.origin ?? rp.origin);
      clock = new Date(Date.now() + (change.minutesLater ?? 0) * 60_000);
      const target = change.asUser ?? user;
      await expect(passkeys.registerPasskey(target, change.name ?? 'Laptop', response, rp, change.binding ?? BROWSER)).rejects.toThrow();
      clock = new Date();
      expect(await passkeys.listPasskeys(target.id)).toEqual([]);
    };
    await attempt({ binding: 'another-browser' });
    await attempt({ asUser: await newUser() });
    await attempt({ origin: 'http://127.0.0.1:3000' });
    await attempt({ authenticator: softAuthenticator({ userVerified: false }) });
    await attempt({ minutesLater: 6 });
    await attempt({ name: '   ' });
  });

  test('a name longer than 64 characters is 400 beside `name`', async () => {
    const user = await newUser();
    const response = softAuthenticator().create(await passkeys.registrationOptions(user, rp, BROWSER), rp.origin);
    await expect(passkeys.registerPasskey(user, 'x'.repeat(65), response, rp, BROWSER)).rejects.toMatchObject({ constructor: InvalidRequestError, attribute: 'name' });
  });
});

describe('sign-in with a passkey', () => {
  test('a discoverable credential signs its user in: no credential named in the options, user verification required; its counter and last use recorded', async () => {
    // Prepare
    const { user, authenticator } = await registered();
    // Act
    const options = await passkeys.authenticationOptions(rp, BROWSER);
    const signedIn = await signInWithPasskey(authenticator.get(options, rp.origin), rp, BROWSER);
    // Assess
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(signedIn).toEqual({ userId: user.id });
    expect((await passkeys.listPasskeys(user.id))[0]).toMatchObject({ counter: 1, lastUsedAt: clock.toISOString() });
  });

  test('refused with the same 401: a replayed answer, another browser\'s challenge, a registration challenge, no user verification, a removed passkey', async () => {
    const { user, passkey, authenticator } = await registered();
    const answer = authenticator.get(await passkeys.authenticationOptions(rp, BROWSER), rp.origin);
    await signInWithPasskey(answer, rp, BROWSER);
    await expect(signInWithPasskey(answer, rp, BROWSER)).rejects.toBeInstanceOf(NotAuthenticatedError);
    await expect(signInWithPasskey(authenticator.get(await passkeys.authenticationOptions(rp, 'another-browser'), rp.origin), rp, BROWSER)).rejects.toBeInstanceOf(NotAuthenticatedError);
    const registration = await passkeys.registrationOptions(user, rp, BROWSER);
    await expect(signInWithPasskey(authenticator.get({ challenge: registration.challenge, rpId: rp.id }, rp.origin), rp, BROWSER)).rejects.toBeInstanceOf(NotAuthenticatedError);
    const unverified = softAuthenticator({ userVerified: false });
    unverified.credentials.push(...authenticator.credentials);
    await expect(signInWithPasskey(unverified.get(await passkeys.authenticationOptions(rp, BROWSER), rp.origin), rp, BROWSER)).rejects.toBeInstanceOf(NotAuthenticatedError);
    await passkeys.removePasskey(user.id, passkey.credentialId, false);
    await expect(signInWithPasskey(authenticator.get(await passkeys.authenticationOptions(rp, BROWSER), rp.origin), rp, BROWSER)).rejects.toBeInstanceOf(NotAuthenticatedError);
  });

  test('a credential presented with another user\'s handle is refused (it must be registered to the user it names)', async () => {
    const { authenticator } = await registered();
    const other = await registered();
    authenticator.credentials[0].userHandle = Buffer.from(other.user.id).toString('base64url');
    await expect(signInWithPasskey(authenticator.get(await passkeys.authenticationOptions(rp, BROWSER), rp.origin), rp, BROWSER)).rejects.toBeInstanceOf(NotAuthenticatedError);
  });

  test('one challenge, two answers racing: exactly one signs in', async () => {
    const { authenticator } = await registered();
    const options = await passkeys.authenticationOptions(rp, BROWSER);
    const answers = [authenticator.get(options, rp.origin), authenticator.get(options, rp.origin)];
    const outcomes = await Promise.allSettled(answers.map((answer) => signInWithPasskey(answer, rp, BROWSER)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('removal', () => {
  test('a user removes their passkey; another user\'s, or an unknown one, is 404', async () => {
    const { user, passkey } = await registered();
    await expect(passkeys.removePasskey(newId('user'), passkey.credentialId, false)).rejects.toBeInstanceOf(NotFoundError);
    expect(await personFactors(db, tableName, user.id)).toEqual({ passkeyCount: 1 });
    await passkeys.removePasskey(user.id, passkey.credentialId, false);
    expect(await passkeys.listPasskeys(user.id)).toEqual([]);
    expect(await personFactors(db, tableName, user.id)).toEqual({ passkeyCount: 0 });
    await expect(passkeys.removePasskey(user.id, passkey.credentialId, false)).rejects.toBeInstanceOf(NotFoundError);
  });
});
