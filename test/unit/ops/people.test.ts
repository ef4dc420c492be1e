import { execFile as execFileCallback } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runOps, UsageError } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { createTeamDirectory } from '../../../shared/db/team-directory';
import { BusinessRuleError } from '../../../shared/errors';
import { dashboardBrowser } from '../../support/dashboard';
import { startTestStack, type TestStack } from '../../support/stack';

/**
 * `ops user create --email E --team-role R --password-stdin` makes a person who signs in to the
 * dashboard; `ops user update --team-role R` changes their role, `--password-stdin` their password
 * (ending their sessions); `--role` stays the contract's platform role (product-decisions §16).
 */
let stack: TestStack;
let orgId: string;
beforeAll(async () => {
  stack = await startTestStack();
  ({ id: orgId } = (await runOps(opsCommands(), ['org', 'create', '--name', 'People org'])) as { id: string });
}, 60_000);
afterAll(() => stack.stop());

const ops = (...argv: string[]) => runOps(opsCommands(), argv, { secret: async () => fail('no standard input here') }) as Promise<Record<string, string>>;
/** An ops command given `password` on standard input. */
const opsWithPassword = (password: string, ...argv: string[]) => runOps(opsCommands(), argv, { secret: async () => password }) as Promise<Record<string, string>>;
const person = (userId: string) => createTeamDirectory(stack.db, stack.tableName).person(userId);

test('ops user create with an email, team role and password: a person who signs in; update changes the team role, and a new password ends their sessions', async () => {
  const email = `ops-${Date.now()}@example.com`;
  const created = await opsWithPassword('an operator set this', 'user', 'create', '--org', orgId, '--email', email, '--team-role', 'developer', '--password-stdin', '--name', 'Olga Ops');
  expect(created).toEqual({ id: expect.stringMatching(/^usr_/), email, team_role: 'developer' });
  expect(await person(created.id)).toMatchObject({ email, name: 'Olga Ops', teamRole: 'developer', status: 'active', role: 'member' });
  const browser = dashboardBrowser(stack);
  const session = await browser.sessionOf({ email, password: 'an operator set this' });

  await ops('user', 'update', '--id', created.id, '--team-role', 'finance');
  expect((await person(created.id))!.teamRole).toBe('finance');
  expect((await browser.get('/dashboard', session)).status).toBe(200);

  await opsWithPassword('another one, by the operator', 'user', 'update', '--id', created.id, '--password-stdin');
  expect((await browser.get('/dashboard', session)).status).toBe(401);
  expect((await browser.signIn({ email, password: 'an operator set this' })).status).toBe(401);
  expect((await browser.signIn({ email, password: 'another one, by the operator' })).status).toBe(303);
}, 60_000);

test('a person needs --email, --team-role and --password-stdin together; owner is not a role update gives; a short password is refused', async () => {
  await expect(ops('user', 'create', '--org', orgId, '--email', 'half@example.com')).rejects.toThrow(new UsageError('a person needs --email, --team-role and --password-stdin together'));
  await expect(opsWithPassword('long enough password', 'user', 'create', '--org', orgId, '--email', 'x@example.com', '--team-role', 'boss', '--password-stdin')).rejects.toThrow(UsageError);
  await expect(opsWithPassword('short', 'user', 'create', '--org', orgId, '--email', 'short@example.com', '--team-role', 'viewer', '--password-stdin')).rejects.toThrow(
    new BusinessRuleError('A password needs at least 12 characters', 'password'),
  );
  const { id } = await opsWithPassword('long enough password', 'user', 'create', '--org', orgId, '--email', `v-${Date.now()}@example.com`, '--team-role', 'viewer', '--password-stdin');
  await expect(ops('user', 'update', '--id', id, '--team-role', 'owner')).rejects.toThrow(UsageError);
  const { id: keyUser } = await ops('user', 'create', '--org', orgId);
  await expect(opsWithPassword('long enough password', 'user', 'update', '--id', keyUser, '--password-stdin')).rejects.toThrow(BusinessRuleError);
}, 60_000);

test('a password is never an argument: --password is refused before anything is written; --password-stdin reads the first line of standard input', async () => {
  const email = `stdin-${Date.now()}@example.com`;
  await expect(ops('user', 'create', '--org', orgId, '--email', email, '--team-role', 'viewer', '--password', 'in the shell history')).rejects.toThrow(/--password-stdin/);
  expect(await createTeamDirectory(stack.db, stack.tableName).personByEmail(email)).toBeUndefined();
  // The CLI itself, its password piped in as an operator would: `printf '%s\n' "$PASSWORD" | npm run ops -- … --password-stdin`.
  const cli = promisify(execFileCallback)(process.execPath, ['--import', 'tsx', join(__dirname, '../../../bin/ops.ts'), 'user', 'create', '--org', orgId, '--email', email, '--team-role', 'viewer', '--password-stdin'], {
    env: { ...process.env, TABLE_NAME: stack.tableName },
  });
  cli.child.stdin!.end('piped in, twelve or more\n');
  const { stdout } = await cli;
  expect(JSON.parse(stdout)).toMatchObject({ email, team_role: 'viewer' });
  expect((await dashboardBrowser(stack).signIn({ email, password: 'piped in, twelve or more' })).status).toBe(303);
}, 60_000);
