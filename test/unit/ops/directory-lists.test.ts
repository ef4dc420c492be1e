import { runOps } from '../../../bin/ops/cli';
import { opsCommands } from '../../../bin/ops/commands';
import { startTestStack, type TestStack } from '../../support/stack';

/** The operator finds what `key create` needs (an organization, its users) and sees every key, never a token. */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack.stop());

const ops = async (...argv: string[]) => (await runOps(opsCommands(), argv)) as Record<string, Record<string, unknown>[]>;

describe('Commands: org list, user list, key list', () => {
  test('ops: an organization, its users and its keys are listed; a key shows what it may do, never its token', async () => {
    // Prepare
    const { id: orgId } = (await runOps(opsCommands(), ['org', 'create', '--name', 'Listed org'])) as { id: string };
    const { id: userId } = (await runOps(opsCommands(), ['user', 'create', '--org', orgId])) as { id: string };
    const created = (await runOps(opsCommands(), ['key', 'create', '--org', orgId, '--creator', userId, '--mode', 'live', '--scopes', 'payment:read'])) as { id: string; token: string };
    await runOps(opsCommands(), ['key', 'revoke', '--id', created.id, '--grace-seconds', '60']);

    // Act
    const { organizations } = await ops('org', 'list');
    const { users } = await ops('user', 'list', '--org', orgId);
    const { keys } = await ops('key', 'list', '--org', orgId);

    // Assess
    expect(organizations).toContainEqual({ id: orgId, name: 'Listed org', created_at: expect.any(String) });
    expect(users).toEqual([{ id: userId, role: 'member', org_permission: true }]);
    expect(keys).toEqual([
      { id: created.id, mode: 'live', scopes: ['payment:read'], acceptor_id: null, creator: userId, created_at: expect.any(String), valid_until: expect.any(String) },
    ]);
    expect(JSON.stringify(keys)).not.toContain(created.token);
  });

  test('ops: another organization lists none of these users or keys', async () => {
    const { id: orgId } = (await runOps(opsCommands(), ['org', 'create', '--name', 'Empty org'])) as { id: string };
    expect(await ops('user', 'list', '--org', orgId)).toEqual({ users: [] });
    expect(await ops('key', 'list', '--org', orgId)).toEqual({ keys: [] });
  });
});
