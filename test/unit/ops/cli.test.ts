import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { HelpRequested, runOps, UsageError } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';

/** The `ops` command is as strict as the API: what it would store wrongly is refused before any write. */
const ops = (...argv: string[]) => runOps(opsCommands(), argv);

test('empty names and empty scope lists are refused', async () => {
  for (const name of ['', '   ']) {
    await expect(ops('org', 'create', '--name', name)).rejects.toThrow(new UsageError('--name must not be empty'));
    await expect(ops('acceptor', 'create', '--org', 'org_x', '--name', name)).rejects.toThrow(new UsageError('--name must not be empty'));
  }
  for (const scopes of ['', ',', ' , ']) {
    await expect(ops('key', 'create', '--org', 'org_x', '--creator', 'usr_x', '--mode', 'test', '--scopes', scopes)).rejects.toThrow(
      new UsageError('--scopes needs at least one scope'),
    );
  }
});

test('--help answers the help; no command at all is a usage error carrying the help', async () => {
  await expect(ops('--help')).rejects.toBeInstanceOf(HelpRequested);
  await expect(ops()).rejects.toThrow(UsageError);
  await expect(ops()).rejects.toThrow(/Usage: npm run ops -- <command>/);
});

test('bin/ops: without a command the help goes to stderr and the exit code is non-zero; with --help to stdout and 0', () => {
  const root = join(__dirname, '..', '..', '..');
  const run = (...args: string[]) =>
    spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'bin', 'ops.ts'), ...args], { encoding: 'utf8', env: { ...process.env, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' } });
  const bare = run();
  expect(bare.status).toBe(2);
  expect(bare.stdout).toBe('');
  expect(bare.stderr).toMatch(/No command given[\s\S]*Commands:/);
  const help = run('--help');
  expect(help.status).toBe(0);
  expect(help.stdout).toMatch(/Commands:/);
  const empty = run('org', 'create', '--name', '');
  expect([empty.status, empty.stderr.trim(), empty.stdout]).toEqual([2, '--name must not be empty', '']);
});
