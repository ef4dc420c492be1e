import { runOps, UsageError } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { createTeamDirectory } from '../../../shared/db/team-directory';
import { BusinessRuleError } from '../../../shared/errors';
import { dashboardBrowser } from '../../support/dashboard';
import { startTestStack, type TestStack } from '../../support/stack';

/**
 * `ops user create --email E --team-role R --password P` makes a person who signs in to the
 * dashboard; `ops user update --team-role R` changes their role, `--password P` their password
 * (ending their sessions); `--role` stays the contract's platform role (product-decisions §16).
 */
let stack: TestStack;
let orgId: string;
beforeAll(async () => {
  stack = await startTestStack();
  ({ id: orgId } = (await runOps(opsCommands(), ['org', 'create', '--name', 'People org'])) as { id: string });
}, 60_000);
afterAll(() => stack.stop());

const ops = (...argv: string[]) => runOps(opsCommands(), argv) as Promise<Record<string, string>>;
const person = (userId: string) => createTeamDirectory(stack.db, stack.tableName).person(userId);

test('ops user create with an email, team role and password: a person who signs in; update changes the team role, and a new password ends their sessions', async () => {
  const email = `ops-${Date.now()}@example.com`;
  const created = await ops('user', 'create', '--org', orgId, '--email', email, '--team-role', 'developer', '--password', 'an operator set this', '--name', 'Olga Ops');
  expect(created).toEqual({ id: expect.stringMatching(/^usr_/), email, team_role: 'developer' });
  expect(await person(created.id)).toMatchObject({ email, name: 'Olga Ops', teamRole: 'developer', status: 'active', role: 'member' });
  const browser = dashboardBrowser(stack);
  const session = await browser.sessionOf({ email, password: 'an operator set this' });

  await ops('user', 'update', '--id', created.id, '--team-role', 'finance');
  expect((await person(created.id))!.teamRole).toBe('finance');
  expect((await browser.get('/dashboard', session)).status).toBe(200);

  await ops('user', 'update', '--id', created.id, '--password', 'another one, by the operator');
  expect((await browser.get('/dashboard', session)).status).toBe(401);
  expect((await browser.signIn({ email, password: 'an operator set this' })).status).toBe(401);
  expect((await browser.signIn({ email, password: 'another one, by the operator' })).status).toBe(303);
}, 60_000);

test('a person needs --email, --team-role and --password together; owner is not a role update gives; a short password is refused', async () => {
  await expect(ops('user', 'create', '--org', orgId, '--email', 'half@example.com')).rejects.toThrow(new UsageError('a person needs --email, --team-role and --password together'));
  await expect(ops('user', 'create', '--org', orgId, '--email', 'x@example.com', '--team-role', 'boss', '--password', 'long enough password')).rejects.toThrow(UsageError);
  await expect(ops('user', 'create', '--org', orgId, '--email', 'short@example.com', '--team-role', 'viewer', '--password', 'short')).rejects.toThrow(
    new BusinessRuleError('A password needs at least 12 characters', 'password'),
  );
  const { id } = await ops('user', 'create', '--org', orgId, '--email', `v-${Date.now()}@example.com`, '--team-role', 'viewer', '--password', 'long enough password');
  await expect(ops('user', 'update', '--id', id, '--team-role', 'owner')).rejects.toThrow(UsageError);
  const { id: keyUser } = await ops('user', 'create', '--org', orgId);
  await expect(ops('user', 'update', '--id', keyUser, '--password', 'long enough password')).rejects.toThrow(BusinessRuleError);
}, 60_000);
