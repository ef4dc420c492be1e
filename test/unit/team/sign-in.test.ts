import { randomBytes, randomUUID } from 'node:crypto';
import { hashToken } from '../../../shared/auth/tokens';
import type { AttemptSlot, AttemptWindows, DashboardSession, ListedSession, PendingSignIn, PendingSignIns, SessionStore, TeamUser } from '../../../shared/domain/team';
import { BusinessRuleError, NotAuthenticatedError, PermissionDeniedError, TooManyRequestsError } from '../../../shared/errors';
import { createDocumentClient } from '../../../shared/db/client';
import { createAttemptWindows } from '../../../shared/db/rate-limit';
import { ensureTable } from '../../../bin/local/dynamodb-local';
import { signIns, WRONG_EMAIL_OR_PASSWORD, WrongSecondFactorError, type SignInDeps } from '../../../shared/use-cases/sign-in';

/**
 * The sign-in state machine with in-memory ports: what it asks of each port, in what order, and
 * what it never does (OWASP ASVS 5.0 V6.3.8: an unknown email costs the same password check).
 */

const person = (changes: Partial<TeamUser> = {}): TeamUser => ({
  userId: 'usr_1',
  orgId: 'org_1',
  role: 'member',
  orgPermission: true,
  email: 'ann@example.com',
  name: 'Ann',
  teamRole: 'viewer',
  status: 'active',
  passwordHash: 'hash of the right password',
  sessionVersion: 3,
  createdAt: '2026-11-01T00:00:00.000Z',
  ...changes,
});

function fakes(options: { user?: TeamUser; locked?: 'email' | 'address'; refusals?: number; requireTwoFactor?: boolean } = {}) {
  const calls: string[] = [];
  const sessions = new Map<string, DashboardSession>();
  const pending = new Map<string, PendingSignIn>();
  const slot = (subject: string): AttemptSlot => ({
    failed: async () => void calls.push(`failed ${subject}`),
    succeeded: async () => void calls.push(`given back ${subject}`),
  });
  const attempts: AttemptWindows = {
    async take(subject) {
      calls.push(`take ${subject}`);
      return subject.startsWith(options.locked ?? '-') ? { retryAfterSeconds: 840, refusals: options.refusals ?? 1 } : slot(subject.split(':')[0]);
    },
  };
  const store: SessionStore = {
    create: async (id, session) => void sessions.set(id, session),
    find: async (id) => sessions.get(id),
    touch: async (id, session) => void (calls.push('touch'), sessions.set(id, session)),
    switchMode: async () => true,
    remove: async (id) => void sessions.delete(id),
    listOfUser: async (): Promise<ListedSession[]> => [...sessions].map(([id, session]) => ({ ...session, idHash: hashToken(id) })),
    removeListed: async () => undefined,
  };
  const pendingStore: PendingSignIns = {
    create: async (id, entry) => void pending.set(id, entry),
    find: async (id) => pending.get(id),
    fail: async () => true,
    take: async (id) => pending.delete(id),
  };
  let now = new Date('2026-11-28T10:00:00.000Z');
  const deps: SignInDeps = {
    people: {
      person: async () => options.user,
      personByEmail: async (email) => (options.user && email.trim().toLowerCase() === options.user.email ? options.user : undefined),
      recordSignIn: async () => void calls.push('noted'),
      endSessions: async () => true,
    },
    organization: async () => ({ requireTwoFactor: options.requireTwoFactor }),
    sessions: store,
    pending: pendingStore,
    attempts,
    passwords: {
      verify: async (password, stored) => {
        calls.push(`hashed against ${stored ?? 'no hash'}`);
        return stored === 'hash of the right password' && password === 'the right password';
      },
      hash: async (password) => `hash of ${password}`,
    },
    audit: { identified: (actor) => void calls.push(`acts as ${actor.type === 'user' ? actor.email : actor.id}`) },
    now: () => now,
  };
  return { deps, calls, sessions, pending, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

const context = { ip: '203.0.113.9', userAgent: 'Test browser' };
/** A table of its own in DynamoDB Local, for the lockouts' real windows. */
const tableName = `test-${randomUUID()}`;

beforeAll(() => ensureTable(process.env.DYNAMODB_ENDPOINT!, tableName));

describe('Function: signIns', () => {
  describe('Method: withPassword', () => {
    test('an unknown email is checked like a wrong password: the same hash, the same slots kept, the same 401', async () => {
      // Prepare
      const known = fakes({ user: person() });
      const unknown = fakes({ user: person() });
      // Act
      const wrong = await signIns(known.deps).withPassword('ann@example.com', 'a wrong password', context).catch((error: Error) => error);
      const nobody = await signIns(unknown.deps).withPassword('bob@example.com', 'a wrong password', context).catch((error: Error) => error);
      // Assess
      for (const refusal of [wrong, nobody]) {
        expect(refusal).toBeInstanceOf(NotAuthenticatedError);
        expect((refusal as Error).message).toBe(WRONG_EMAIL_OR_PASSWORD);
      }
      // The person of a known email is who the refusal's audit record names, with the email tried; an unknown one names nobody.
      expect(known.calls).toEqual(['take email:ann@example.com', 'take address:203.0.113.9', 'acts as ann@example.com', 'hashed against hash of the right password', 'failed email', 'failed address']);
      expect(unknown.calls).toEqual(['take email:bob@example.com', 'take address:203.0.113.9', 'hashed against no hash', 'failed email', 'failed address']);
    });

    test('a locked email is refused (429) before any password is checked, the right one included; the refusal names the person, with the email tried', async () => {
      const { deps, calls } = fakes({ user: person(), locked: 'email' });
      const refusal = await signIns(deps).withPassword(' Ann@example.com', 'the right password', context).catch((error: Error) => error);
      expect(refusal).toBeInstanceOf(TooManyRequestsError);
      expect((refusal as TooManyRequestsError).retryAfterSeconds).toBe(840);
      expect(calls).toEqual(['take email:ann@example.com', 'acts as Ann@example.com']);
    });

    test("a locked address is refused (429) before any check, and the email's slot is given back", async () => {
      const { deps, calls } = fakes({ user: person(), locked: 'address' });
      await expect(signIns(deps).withPassword('ann@example.com', 'the right password', context)).rejects.toBeInstanceOf(TooManyRequestsError);
      expect(calls).toEqual(['take email:ann@example.com', 'take address:203.0.113.9', 'given back email', 'acts as ann@example.com']);
    });

    test.each([
      ['email', 5],
      ['address', 50],
    ] as const)("a lock of the %s names the person of a refused attempt while it has refused at most its window's limit (%i), then nobody", async (locked, limit) => {
      for (const [refusals, named] of [[limit, true], [limit + 1, false], [0, false]] as const) {
        const { deps, calls } = fakes({ user: person(), locked, refusals });
        await expect(signIns(deps).withPassword('ann@example.com', 'a wrong password', context)).rejects.toBeInstanceOf(TooManyRequestsError);
        expect({ refusals, named: calls.includes('acts as ann@example.com') }).toEqual({ refusals, named });
      }
    });

    test('the right password gives both slots back, notes the sign-in and issues a session in test mode for 12 hours', async () => {
      const { deps, calls, sessions } = fakes({ user: person() });
      const outcome = await signIns(deps).withPassword(' ANN@example.com ', 'the right password', context);
      expect(outcome.kind).toBe('session');
      // The audit record names the email tried until the session is issued, then the person's own.
      expect(calls).toEqual([
        'take email:ann@example.com',
        'take address:203.0.113.9',
        'acts as ANN@example.com',
        'hashed against hash of the right password',
        'given back email',
        'given back address',
        'noted',
        'acts as ann@example.com',
      ]);
      const session = sessions.get(outcome.kind === 'session' ? outcome.sessionId : '')!;
      expect(session).toEqual({
        userId: 'usr_1',
        orgId: 'org_1',
        mode: 'test',
        sessionVersion: 3,
        createdAt: '2026-11-28T10:00:00.000Z',
        lastSeenAt: '2026-11-28T10:00:00.000Z',
        expiresAt: '2026-11-28T22:00:00.000Z',
        ip: '203.0.113.9',
        userAgent: 'Test browser',
      });
    });

    test.each([
      ['removed', { status: 'removed' as const }, PermissionDeniedError],
      ['demoted', { role: 'demoted' as const }, NotAuthenticatedError],
      ['a global admin', { role: 'admin' as const }, BusinessRuleError],
    ])('a person %s: refused after the right password (their slots given back), no session', async (_name, changes, refusal) => {
      const { deps, calls, sessions } = fakes({ user: person(changes) });
      await expect(signIns(deps).withPassword('ann@example.com', 'the right password', context)).rejects.toBeInstanceOf(refusal);
      expect(calls).toContain('given back email');
      expect(sessions.size).toBe(0);
    });

    test.each([
      ['enrolled in two-factor', { twoFactorEnabledAt: '2026-11-02T00:00:00.000Z' }, false, 'code'],
      ['with a passkey', { passkeyCount: 1 }, false, 'code'],
      ['without two-factor where the organization requires it', {}, true, 'enrol'],
    ])('a person %s: a pending sign-in for the second step, no session yet', async (_name, changes, requireTwoFactor, step) => {
      const { deps, sessions, pending } = fakes({ user: person(changes), requireTwoFactor });
      const outcome = await signIns(deps).withPassword('ann@example.com', 'the right password', context);
      expect(outcome).toEqual({ kind: 'second factor', pendingId: expect.stringMatching(/^[\w-]{43}$/), step });
      expect(sessions.size).toBe(0);
      expect(pending.get(outcome.kind === 'second factor' ? outcome.pendingId : '')).toEqual({
        userId: 'usr_1',
        step,
        createdAt: '2026-11-28T10:00:00.000Z',
        expiresAt: '2026-11-28T10:05:00.000Z',
        failures: 0,
      });
    });
  });

  describe('Method: completeSignIn', () => {
    test('the pending sign-in is taken once: its session is issued, a replay is refused', async () => {
      const { deps, sessions } = fakes({ user: person({ twoFactorEnabledAt: '2026-11-02T00:00:00.000Z' }) });
      const flow = signIns(deps);
      const outcome = await flow.withPassword('ann@example.com', 'the right password', context);
      const pendingId = outcome.kind === 'second factor' ? outcome.pendingId : '';
      const sessionId = await flow.completeSignIn(pendingId, context);
      expect(sessions.get(sessionId)).toMatchObject({ userId: 'usr_1', mode: 'test' });
      await expect(flow.completeSignIn(pendingId, context)).rejects.toBeInstanceOf(NotAuthenticatedError);
    });
  });

  describe('Method: withSecondFactor', () => {
    /** A person with two-factor, their pending sign-in (as the password step leaves it) and the flow's fakes. */
    async function pendingOf(options: Parameters<typeof fakes>[0] = {}) {
      const user = person({ twoFactorEnabledAt: '2026-11-02T00:00:00.000Z' });
      const fake = fakes({ user, ...options });
      const pendingId = randomBytes(32).toString('base64url');
      await fake.deps.pending.create(pendingId, { userId: 'usr_1', step: 'code', createdAt: '2026-11-28T10:00:00.000Z', expiresAt: '2026-11-28T10:05:00.000Z', failures: 0 });
      /** A code check that answers `right`, noted among the calls. */
      const code = (right: boolean) => async () => {
        fake.calls.push('code checked');
        return right;
      };
      return { ...fake, user, pendingId, code };
    }

    test("a code is a failed sign-in like a wrong password: slots of the email's and the address's windows taken before it is checked, the person named; wrong: the slots kept, refused, the pending sign-in kept", async () => {
      const { deps, user, pendingId, calls, pending, code } = await pendingOf();
      await expect(signIns(deps).withSecondFactor(pendingId, user, code(false), context)).rejects.toBeInstanceOf(WrongSecondFactorError);
      expect(calls).toEqual(['take email:ann@example.com', 'take address:203.0.113.9', 'acts as ann@example.com', 'code checked', 'failed email', 'failed address']);
      expect(pending.has(pendingId)).toBe(true);
    });

    test('a right code gives both slots back and issues the session', async () => {
      const { deps, user, pendingId, calls, sessions, code } = await pendingOf();
      const sessionId = await signIns(deps).withSecondFactor(pendingId, user, code(true), context);
      expect(sessions.get(sessionId)).toMatchObject({ userId: 'usr_1' });
      expect(calls.slice(0, 6)).toEqual(['take email:ann@example.com', 'take address:203.0.113.9', 'acts as ann@example.com', 'code checked', 'given back email', 'given back address']);
    });

    test('a locked email refuses the code (429) before it is checked, a right one included; the refusal names the person', async () => {
      const { deps, user, pendingId, calls, pending, code } = await pendingOf({ locked: 'email' });
      const refusal = await signIns(deps).withSecondFactor(pendingId, user, code(true), context).catch((error: Error) => error);
      expect(refusal).toBeInstanceOf(TooManyRequestsError);
      expect((refusal as TooManyRequestsError).retryAfterSeconds).toBe(840);
      expect(calls).toEqual(['take email:ann@example.com', 'acts as ann@example.com']);
      expect(pending.has(pendingId)).toBe(true);
    });

    test("20 concurrent wrong codes against DynamoDB Local's windows: exactly 5 codes are checked, the other 15 refused (429) before any check", async () => {
      const { deps, user, pendingId, calls, code } = await pendingOf();
      const flow = signIns({ ...deps, attempts: createAttemptWindows(createDocumentClient(), tableName) });
      const answers = await Promise.all(Array.from({ length: 20 }, () => flow.withSecondFactor(pendingId, user, code(false), context).catch((error: Error) => error)));
      expect(calls.filter((call) => call === 'code checked')).toHaveLength(5);
      expect(answers.filter((answer) => answer instanceof WrongSecondFactorError)).toHaveLength(5);
      expect(answers.filter((answer) => answer instanceof TooManyRequestsError)).toHaveLength(15);
    }, 30_000);
  });

  describe('Method: withPasskey', () => {
    test("the passkey's answer is checked under the lockouts: slots taken first, its person named (a refusal is their failed sign-in); refused: the slots kept, no session", async () => {
      const { deps, calls, sessions } = fakes({ user: person({ passkeyCount: 1 }) });
      const refused = new NotAuthenticatedError('The passkey could not be verified');
      await expect(signIns(deps).withPasskey('usr_1', async () => Promise.reject(refused), context)).rejects.toBe(refused);
      expect(calls).toEqual(['take email:ann@example.com', 'take address:203.0.113.9', 'acts as ann@example.com', 'failed email', 'failed address']);
      expect(sessions.size).toBe(0);
    });

    test('a verified answer gives both slots back and issues the session; a locked email refuses it (429) before it is verified', async () => {
      const signedIn = fakes({ user: person({ passkeyCount: 1 }) });
      const { sessionId } = await signIns(signedIn.deps).withPasskey('usr_1', async () => undefined, context);
      expect(signedIn.sessions.has(sessionId)).toBe(true);
      expect(signedIn.calls.slice(0, 5)).toEqual(['take email:ann@example.com', 'take address:203.0.113.9', 'acts as ann@example.com', 'given back email', 'given back address']);
      const locked = fakes({ user: person({ passkeyCount: 1 }), locked: 'email' });
      await expect(signIns(locked.deps).withPasskey('usr_1', async () => void locked.calls.push('verified'), context)).rejects.toBeInstanceOf(TooManyRequestsError);
      expect(locked.calls).toEqual(['take email:ann@example.com', 'acts as ann@example.com']);
    });
  });

  describe('Method: resume', () => {
    test('a session of an older session version has ended (a password change, signing out everywhere)', async () => {
      const { deps } = fakes({ user: person({ sessionVersion: 4 }) });
      const flow = signIns(deps);
      const issued = await flow.issueSession(person(), context);
      await expect(flow.resume(issued)).rejects.toThrow('Your dashboard session has ended; sign in again');
    });

    test('the last request is recorded only once it is a minute old; 30 idle minutes end the session', async () => {
      const { deps, calls, advance } = fakes({ user: person() });
      const flow = signIns(deps);
      const sessionId = await flow.issueSession(person(), context);
      await flow.resume(sessionId);
      advance(59_000);
      await flow.resume(sessionId);
      expect(calls.filter((call) => call === 'touch')).toHaveLength(0);
      advance(1_000);
      await flow.resume(sessionId);
      expect(calls.filter((call) => call === 'touch')).toHaveLength(1);
      advance(30 * 60_000);
      await expect(flow.resume(sessionId)).rejects.toBeInstanceOf(NotAuthenticatedError);
    });
  });
});
