import { SCOPES, type Mode, type Scope } from '../../shared/auth/principal';
import type { UserRole } from '../../shared/auth/key-store';
import type { Directory } from '../../shared/db/directory';
import { ASSIGNABLE_ROLES, TEAM_ROLES } from '../../shared/domain/team-roles';
import { UsageError, type OpsCommand } from './cli';

/** A name option: refused when empty or blank. */
const nameOf = (value: unknown): string => {
  const name = String(value ?? '').trim();
  if (name === '') throw new UsageError('--name must not be empty');
  return name;
};

/** An acquirer merchant account code, as Adyen's Customer Area names them (`AdyenDemoECOM`). */
const merchantAccountOf = (value: unknown): string => {
  const account = String(value);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$/.test(account)) throw new UsageError('--merchant-account must be 1 to 80 letters, digits, _ . or -, starting with a letter or digit');
  return account;
};

const oneOf = <T extends string>(name: string, value: unknown, allowed: readonly T[]): T => {
  if (!allowed.includes(value as T)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
};

/** org, acceptor, user and key commands (product-decisions §11). */
export function directoryCommands(directory: () => Directory): OpsCommand[] {
  return [
    {
      words: 'org create',
      usage: '--name N',
      options: { name: { type: 'string', required: true } },
      run: async ({ name }) => ({ id: (await directory().createOrganization(nameOf(name))).id }),
    },
    {
      words: 'org list',
      usage: '',
      options: {},
      run: async () => ({
        organizations: (await directory().listOrganizations()).map((org) => ({ id: org.id, name: org.name, created_at: org.createdAt })),
      }),
    },
    {
      words: 'acceptor create',
      usage: '--org ORG --name N [--merchant-account NAME]',
      options: { org: { type: 'string', required: true }, name: { type: 'string', required: true }, 'merchant-account': { type: 'string' } },
      run: async ({ org, name, 'merchant-account': merchantAccount }) => ({
        id: (await directory().createAcceptor(String(org), nameOf(name), merchantAccount === undefined ? undefined : merchantAccountOf(merchantAccount))).id,
      }),
    },
    {
      words: 'user create',
      usage: '--org ORG [--role member|admin] [--email E --team-role R --password-stdin [--name N]]',
      options: {
        org: { type: 'string', required: true },
        role: { type: 'string' },
        email: { type: 'string' },
        'team-role': { type: 'string' },
        'password-stdin': { type: 'boolean' },
        password: { type: 'string' },
        name: { type: 'string' },
      },
      // With --email, a person of the organization's team who signs in to the dashboard (product-decisions §16).
      run: async ({ org, role, email, 'team-role': teamRole, 'password-stdin': passwordStdin, password, name }, _positionals, input) => {
        refuseArgumentPassword(password);
        const chosen = oneOf('role', role ?? 'member', ['member', 'admin'] as const);
        const personal = [email, teamRole, passwordStdin, name].some((value) => value !== undefined);
        if (!personal) return { id: (await directory().createUser(String(org), chosen)).userId };
        if (email === undefined || teamRole === undefined || passwordStdin !== true) throw new UsageError('a person needs --email, --team-role and --password-stdin together');
        const person = { email: String(email), name: name === undefined ? String(email).split('@')[0] : nameOf(name), teamRole: oneOf('team-role', teamRole, TEAM_ROLES), password: await input.secret() };
        const user = await directory().createUser(String(org), chosen, person);
        return { id: user.userId, email: person.email, team_role: person.teamRole };
      },
    },
    {
      words: 'user list',
      usage: '--org ORG',
      options: { org: { type: 'string', required: true } },
      run: async ({ org }) => ({
        users: (await directory().listUsers(String(org))).map((user) => ({ id: user.userId, role: user.role, org_permission: user.orgPermission })),
      }),
    },
    {
      words: 'user update',
      usage: '--id USR [--role member|admin|demoted] [--org-permission true|false] [--team-role R] [--password-stdin]',
      options: {
        id: { type: 'string', required: true },
        role: { type: 'string' },
        'org-permission': { type: 'string' },
        'team-role': { type: 'string' },
        'password-stdin': { type: 'boolean' },
        password: { type: 'string' },
      },
      run: async (values, _positionals, input) => {
        refuseArgumentPassword(values.password);
        const role = values.role === undefined ? undefined : oneOf<UserRole>('role', values.role, ['member', 'admin', 'demoted']);
        const permission = values['org-permission'];
        const orgPermission =
          permission === undefined ? undefined : oneOf('org-permission', permission, ['true', 'false'] as const) === 'true';
        // Ownership moves only by the owner's handover on the team page: always exactly one owner.
        const teamRole = values['team-role'] === undefined ? undefined : oneOf('team-role', values['team-role'], ASSIGNABLE_ROLES);
        const password = values['password-stdin'] === true ? await input.secret() : undefined;
        return { id: (await directory().updateUser(String(values.id), { role, orgPermission, teamRole, password })).userId };
      },
    },
    {
      words: 'key create',
      usage: '--org ORG --creator USR --mode test|live --scopes a,b [--acceptor ACC]',
      options: {
        org: { type: 'string', required: true },
        creator: { type: 'string', required: true },
        mode: { type: 'string', required: true },
        scopes: { type: 'string', required: true },
        acceptor: { type: 'string' },
      },
      run: async (values) => {
        const scopes = String(values.scopes)
          .split(',')
          .map((scope) => scope.trim())
          .filter(Boolean);
        if (scopes.length === 0) throw new UsageError('--scopes needs at least one scope');
        for (const scope of scopes) oneOf<Scope>('scopes', scope, SCOPES);
        const created = await directory().createApiKey({
          orgId: String(values.org),
          creatorId: String(values.creator),
          mode: oneOf<Mode>('mode', values.mode, ['test', 'live']),
          scopes: scopes as Scope[],
          acceptorId: values.acceptor === undefined ? undefined : String(values.acceptor),
        });
        return { id: created.id, token: created.token };
      },
    },
    {
      words: 'key list',
      usage: '--org ORG',
      options: { org: { type: 'string', required: true } },
      // What each key may do and who made it; a token is shown once, at creation, and never again.
      run: async ({ org }) => ({
        keys: (await directory().listApiKeys(String(org))).map((key) => ({
          id: key.keyId,
          mode: key.mode,
          scopes: key.scopes,
          acceptor_id: key.acceptorId ?? null,
          creator: key.creatorId,
          created_at: key.createdAt,
          valid_until: key.validUntil ?? null,
        })),
      }),
    },
    {
      words: 'key revoke',
      usage: '--id KEY [--grace-seconds N]',
      options: { id: { type: 'string', required: true }, 'grace-seconds': { type: 'string' } },
      run: async (values) => {
        const grace = values['grace-seconds'] === undefined ? 0 : Number(values['grace-seconds']);
        if (!Number.isInteger(grace) || grace < 0) throw new UsageError('--grace-seconds must be a non-negative integer');
        return { id: (await directory().revokeApiKey(String(values.id), grace)).id };
      },
    },
  ];
}

/**
 * A password is never an argument: shell history keeps it, and the process list shows it to
 * every user of the machine while the command runs. It is read from standard input.
 */
function refuseArgumentPassword(password: unknown): void {
  if (password !== undefined) throw new UsageError('--password is not taken: give the password on standard input with --password-stdin (shell history and the process list keep arguments)');
}
