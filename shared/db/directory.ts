import { PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredApiKey, StoredUser, UserRole } from '../auth/key-store';
import type { Mode, Scope } from '../auth/principal';
import { checkNewPassword, hashPassword } from '../auth/passwords';
import { hashToken, newToken } from '../auth/tokens';
import type { TeamRole } from '../domain/team-roles';
import { BusinessRuleError, NotFoundError } from '../errors';
import { newId } from '../ids';
import { isoMillis } from '../time';
import { conditionalWrite } from './conditional';
import { acceptorEntity, apiKeyEntity, organizationEntity, userEntity } from './entities';
import { IF_EXISTS, IF_NEW, stripKeys } from './entity';
import { transactWrite } from './side-effects';
import * as keys from './keys';
import { createAcceptorLookup, createKeyStore, getItem, type Acceptor } from './directory-lookups';

export type { Acceptor };
import { queryAll } from './query-all';
import { INDEXES, KEY } from './table';
import { createTeamDirectory } from './team-directory';

/** A person's team fields at creation: their password as given (checked, then hashed) or already hashed. */
export type NewPerson = { email: string; name: string; teamRole: TeamRole } & ({ password: string } | { passwordHash: string });

export interface Organization {
  id: string;
  name: string;
  createdAt: string;
}

/**
 * Organizations, acceptors, users and API keys: the directory that authentication and the
 * `ops` command share. Implements the KeyStore port that the Authenticator reads.
 */
export function createDirectory(db: DynamoDBDocumentClient, tableName: string) {
  const get = <T>(key: Record<string, string>) => getItem<T>(db, tableName, key);
  const team = createTeamDirectory(db, tableName);

  async function listOnGsi1<T>(partition: string): Promise<T[]> {
    const items = await queryAll(db, {
      TableName: tableName,
      IndexName: INDEXES.gsi1.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
      ExpressionAttributeValues: { ':pk': partition },
    });
    return items.map((item) => stripKeys<T>(item)!);
  }

  async function requireOrganization(orgId: string): Promise<Organization> {
    const org = await get<Organization>(keys.organization(orgId));
    if (!org) throw new NotFoundError(`Organization ${orgId} does not exist`);
    return org;
  }

  return {
    keyStore: createKeyStore(db, tableName),

    async createOrganization(name: string): Promise<Organization> {
      const org = { id: newId('organization'), name, createdAt: isoMillis() };
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: organizationEntity.item(org),
        }),
      );
      return org;
    },

    async hasAnyOrganization(): Promise<boolean> {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: INDEXES.gsi1.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': INDEXES.gsi1.pk },
          ExpressionAttributeValues: { ':pk': keys.organizationsPartition },
          Limit: 1,
        }),
      );
      return (page.Items?.length ?? 0) > 0;
    },

    getOrganization: (orgId: string) => get<Organization>(keys.organization(orgId)),

    /** Every organization, oldest first (the operator's view). */
    listOrganizations: () => listOnGsi1<Organization>(keys.organizationsPartition),

    /** An organization's users, oldest first. */
    listUsers: (orgId: string) => listOnGsi1<StoredUser>(userEntity.partition('gsi1', { org: orgId })),

    /** An organization's API keys, oldest first: what each may do and its standing, never a token or its hash. */
    async listApiKeys(orgId: string): Promise<StoredApiKey[]> {
      return listOnGsi1<StoredApiKey>(apiKeyEntity.partition('gsi1', { org: orgId }));
    },

    async createAcceptor(orgId: string, name: string, merchantAccount?: string): Promise<Acceptor> {
      await requireOrganization(orgId);
      const acceptor = { id: newId('acceptor'), orgId, name, ...(merchantAccount ? { merchantAccount } : {}), createdAt: isoMillis() };
      await db.send(new PutCommand({ TableName: tableName, Item: acceptorEntity.item(acceptor) }));
      return acceptor;
    },

    ...createAcceptorLookup(db, tableName),

    /**
     * A user of `orgId` with the platform `role`; with `person`, also a person of its team
     * (product-decisions §16): active, their email claimed in the same transaction (taken: 422
     * on `email`), their password hashed.
     */
    async createUser(orgId: string, role: Exclude<UserRole, 'demoted'> = 'member', person?: NewPerson): Promise<StoredUser> {
      await requireOrganization(orgId);
      const user: StoredUser = { userId: newId('user'), orgId, role, orgPermission: true };
      if (!person) {
        await db.send(new PutCommand({ TableName: tableName, Item: userEntity.item(user) }));
        return user;
      }
      if ('password' in person) checkNewPassword(person.password, person.email);
      return team.createPerson({
        ...user,
        email: person.email.trim(),
        name: person.name.trim(),
        teamRole: person.teamRole,
        status: 'active',
        passwordHash: 'passwordHash' in person ? person.passwordHash : await hashPassword(person.password),
        sessionVersion: 0,
        createdAt: isoMillis(),
      });
    },

    /**
     * A user's platform role and permission; for a person, also their team role and a new
     * password (by the rules of §16, hashed; it ends every session of theirs, as a reset does).
     */
    async updateUser(userId: string, changes: { role?: UserRole; orgPermission?: boolean; teamRole?: TeamRole; password?: string }): Promise<StoredUser> {
      const names: Record<string, string> = { ...IF_EXISTS.ExpressionAttributeNames };
      const values: Record<string, unknown> = {};
      const sets: string[] = [];
      if (changes.role) {
        names['#role'] = 'role';
        values[':role'] = changes.role;
        sets.push('#role = :role');
      }
      if (changes.orgPermission !== undefined) {
        names['#perm'] = 'orgPermission';
        values[':perm'] = changes.orgPermission;
        sets.push('#perm = :perm');
      }
      let condition = IF_EXISTS.ConditionExpression;
      if (changes.teamRole) {
        names['#teamRole'] = 'teamRole';
        values[':teamRole'] = changes.teamRole;
        sets.push('#teamRole = :teamRole');
        // Only a person has a team role.
        condition += ' AND attribute_exists(#teamRole)';
      }
      if (changes.password !== undefined) {
        const person = await team.person(userId);
        if (!person) throw new BusinessRuleError(`User ${userId} is not a person of a team: it has no password`, 'password');
        checkNewPassword(changes.password, person.email);
        names['#passwordHash'] = 'passwordHash';
        names['#sessionVersion'] = 'sessionVersion';
        values[':passwordHash'] = await hashPassword(changes.password);
        values[':one'] = 1;
        sets.push('#passwordHash = :passwordHash', '#sessionVersion = #sessionVersion + :one');
        condition += ' AND attribute_exists(#passwordHash)';
      }
      if (sets.length === 0) throw new BusinessRuleError('Nothing to update: give --role, --org-permission, --team-role or --password');
      const user = await conditionalWrite(
        async () =>
          (
            await db.send(
              new UpdateCommand({
                TableName: tableName,
                Key: keys.user(userId),
                UpdateExpression: `SET ${sets.join(', ')}`,
                ConditionExpression: condition,
                ExpressionAttributeNames: names,
                ExpressionAttributeValues: values,
                ReturnValues: 'ALL_NEW',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              }),
            )
          ).Attributes as StoredUser,
        (old) => {
          if (old) throw new BusinessRuleError(`User ${userId} is not a person of a team: it has no team role`, 'team-role');
          throw new NotFoundError(`User ${userId} does not exist`);
        },
      );
      await team.copyStandingToKeys(user);
      return user;
    },

    /**
     * A new key of `creatorId`'s (the contract's Authentication rules: a token shown once, its
     * hash stored), put in one transaction: a dashboard creation's audit record rides it
     * (shared/db/audit-trail.ts).
     */
    async createApiKey(input: NewApiKey): Promise<{ id: string; token: string }> {
      const { key, token, put } = await newApiKey(input);
      await transactWrite(db, [put]);
      return { id: key.keyId, token };
    },

    /** A key by its id (its standing and what it may do, never its token or hash); undefined when there is none. */
    findApiKey,

    /** Revokes a key; it keeps working for `graceSeconds` (0: at once). */
    async revokeApiKey(keyId: string, graceSeconds = 0): Promise<{ id: string; validUntil: string }> {
      const found = await findApiKeyItem(keyId);
      if (!found) throw new NotFoundError(`API key ${keyId} does not exist`);
      const validUntil = isoMillis(Date.now() + graceSeconds * 1000);
      await transactWrite(db, [endAction(found.item, validUntil)]);
      return { id: keyId, validUntil };
    },

    /**
     * Rolls a key (product-decisions §17): a new key with its name, scopes and acceptor, created by
     * `creatorId`, and the old one ending after `graceSeconds`, in one transaction (its audit
     * record rides it). A key that ends sooner already keeps its end.
     */
    async rollApiKey(keyId: string, creatorId: string, graceSeconds: number): Promise<{ id: string; token: string; replaced: string; validUntil: string }> {
      const found = await findApiKeyItem(keyId);
      if (!found) throw new NotFoundError(`API key ${keyId} does not exist`);
      const { key: old, item } = found;
      const { key, token, put } = await newApiKey({
        orgId: old.orgId,
        creatorId,
        mode: old.mode,
        scopes: old.scopes,
        ...(old.acceptorId ? { acceptorId: old.acceptorId } : {}),
        ...(old.name ? { name: old.name } : {}),
      });
      const asked = isoMillis(Date.now() + graceSeconds * 1000);
      const validUntil = old.validUntil && old.validUntil < asked ? old.validUntil : asked;
      await transactWrite(db, [put, endAction(item, validUntil)]);
      return { id: key.keyId, token, replaced: keyId, validUntil };
    },
  };

  /** The key's item and record, found by its id (gsi3). */
  async function findApiKeyItem(keyId: string): Promise<{ item: Record<string, unknown>; key: StoredApiKey } | undefined> {
    const found = await db.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: INDEXES.gsi3.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': INDEXES.gsi3.pk },
        ExpressionAttributeValues: { ':pk': keys.apiKeyIdLookup(keyId) },
        Limit: 1,
      }),
    );
    const item = found.Items?.[0];
    return item ? { item, key: stripKeys<StoredApiKey>(item)! } : undefined;
  }

  async function findApiKey(keyId: string): Promise<StoredApiKey | undefined> {
    return (await findApiKeyItem(keyId))?.key;
  }

  /** The key ends at `validUntil`: it still exists (a key is never deleted, so this only guards a wrong id). */
  function endAction(item: Record<string, unknown>, validUntil: string) {
    return {
      Update: {
        TableName: tableName,
        Key: { [KEY.pk]: item[KEY.pk], [KEY.sk]: item[KEY.sk] },
        UpdateExpression: 'SET #validUntil = :validUntil',
        ExpressionAttributeNames: { '#validUntil': 'validUntil', ...IF_EXISTS.ExpressionAttributeNames },
        ExpressionAttributeValues: { ':validUntil': validUntil },
        ConditionExpression: IF_EXISTS.ConditionExpression,
      },
    };
  }

  /** A key's record, its token, and the Put that stores it (its creator's standing copied onto it). */
  async function newApiKey(input: NewApiKey) {
    await requireOrganization(input.orgId);
    const creator = await get<StoredUser>(keys.user(input.creatorId));
    if (!creator || creator.orgId !== input.orgId) {
      throw new BusinessRuleError(`User ${input.creatorId} does not belong to ${input.orgId}`, 'creator');
    }
    if (input.acceptorId && !(await get(keys.acceptor(input.orgId, input.acceptorId)))) {
      throw new BusinessRuleError(`Acceptor ${input.acceptorId} does not belong to ${input.orgId}`, 'acceptor');
    }
    const token = newToken(input.mode);
    const key: StoredApiKey = {
      keyId: newId('apiKey'),
      orgId: input.orgId,
      mode: input.mode,
      scopes: input.scopes,
      creatorId: input.creatorId,
      creator: { orgId: creator.orgId, role: creator.role, orgPermission: creator.orgPermission },
      createdAt: isoMillis(),
      ...(input.acceptorId ? { acceptorId: input.acceptorId } : {}),
      ...(input.name ? { name: input.name } : {}),
    };
    return { key, token, put: { Put: { TableName: tableName, Item: apiKeyEntity.item(key, { tokenHash: hashToken(token) }), ...IF_NEW } } };
  }
}

/** What a new key is: its organization, creator (a person of it), mode, scopes, and optionally its acceptor and name. */
export interface NewApiKey {
  orgId: string;
  creatorId: string;
  mode: Mode;
  scopes: Scope[];
  acceptorId?: string;
  name?: string;
}

export type Directory = ReturnType<typeof createDirectory>;
