import { AsyncLocalStorage } from 'node:async_hooks';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Actor, Mode } from '../auth/principal';
import { AUDIT_RETENTION_DAYS, isModeless, targetOf, viewsOf, type AuditAction, type AuditActor, type AuditRecord, type AuditTarget, type AuditTargetSource } from '../domain/audit';
import { newId } from '../ids';
import { logger } from '../observability/logger';
import { isoMillis } from '../time';
import { auditEventEntity, entities } from './entities';
import { IF_NEW } from './entity';
import { TTL_ATTRIBUTE } from './table';

/*
 * How a request's audit record reaches the table (product-decisions §17: "a change and its audit
 * event are written together"). The edge (shared/http/audit.ts) opens a `RequestAudit` from the
 * route's declaration and the caller around the operation's use case; every TransactWriteItems
 * of the request goes through `transactWrite` (shared/db/side-effects.ts), which asks it for the
 * record's items and puts them in the same transaction: no change without its record, no record
 * of a change that was not committed. The first transaction that carries the change takes it;
 * the ones after it carry none, so a request records once. Why the record rides the request's
 * async context rather than a parameter of every port: docs/decisions.md 130.
 */

type TransactActions = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** What a route declares it records (shared/api/operation.ts `AuditDeclaration`). */
export interface AuditPlan {
  action: AuditAction;
  target: AuditTargetSource;
  /** The record rides only a transaction that puts an item of this entity (a sign-in's session, not its pending second step). */
  carriedBy?: string;
  /** A refusal of the person the request identified is recorded under this action, on its own. */
  refusedAs?: AuditAction;
}

/** Who acts and from where, as the edge knows it before the use case runs. */
export interface AuditCaller {
  /** The principal's actor and organization; a public form's person is identified by its use case (`identifyActor`). */
  actor?: Actor;
  orgId?: string;
  /** The mode the caller acts in: the record's, for an action of a mode. */
  mode?: Mode;
  /** The path's `{id}`, for a target of `path`. */
  pathId?: string;
  /** The form's fields, for a target read from the body. */
  body?: Readonly<Record<string, unknown>>;
  ip: string | null;
  userAgent: string | null;
}

/** A created object's kind and id, by the entity of the item a transaction puts. */
const objectsByEntity = new Map(
  entities.flatMap((entity) => {
    const object = entity.definition.object as { type: string; id: (record: unknown) => string } | undefined;
    return object ? [[entity.definition.name, object] as const] : [];
  }),
);

const putItems = (actions: TransactActions) =>
  actions.flatMap((action) => (action.Put?.Item ? [action.Put.Item as Record<string, unknown>] : []));

/**
 * One request's record: made when the request starts (its id and time), completed when the actor
 * is known, taken by the first transaction that carries its change.
 */
export class RequestAudit {
  readonly id = newId('auditEvent');
  readonly createdAt = isoMillis();
  private state: 'waiting' | 'sending' | 'written' = 'waiting';
  private actor?: AuditActor;
  private orgId?: string;

  constructor(
    readonly plan: AuditPlan,
    private readonly caller: AuditCaller,
  ) {
    this.actor = caller.actor;
    this.orgId = caller.orgId;
  }

  /** The person a public form acts as, once its use case knows them (a sign-in's email). */
  identify(actor: Actor, orgId: string): void {
    this.actor = actor;
    this.orgId = orgId;
  }

  /** Whether a transaction carried the record. */
  get written(): boolean {
    return this.state === 'written';
  }

  /** A write the request committed outside any transaction that could carry the record (`reportUnrecorded`). */
  singleWrites = 0;

  /** The record of `action` with `target`, when the actor is known. */
  private record(action: AuditAction, target: AuditTarget | null): AuditRecord | undefined {
    if (!this.actor || !this.orgId) return undefined;
    const mode = isModeless(action) ? null : (this.caller.mode ?? null);
    return { id: this.id, orgId: this.orgId, action, actor: this.actor, target, mode, ip: this.caller.ip, userAgent: this.caller.userAgent, createdAt: this.createdAt };
  }

  /** The target as the plan finds it in `actions`; undefined when this transaction does not carry the change. */
  private targetIn(actions: TransactActions): AuditTarget | null | undefined {
    const type = targetOf(this.plan.action);
    const source = this.plan.target;
    if (typeof source === 'object') {
      const id = this.caller.body?.[source.body];
      return type && typeof id === 'string' ? { type, id } : undefined;
    }
    switch (source) {
      case 'none':
        return null;
      case 'actor':
        return this.actor && this.actor.type !== 'system' ? { type: 'user', id: this.actor.id } : undefined;
      case 'path':
        return type && this.caller.pathId !== undefined ? { type, id: this.caller.pathId } : undefined;
      case 'created':
        for (const item of putItems(actions)) {
          const object = objectsByEntity.get(String(item.entity));
          if (object && object.type === type) return { type, id: object.id(item) };
        }
        return undefined;
    }
  }

  /**
   * The items this transaction carries, taking the record (undefined: it carries none): the
   * request's first transaction that makes the change the plan names. `settled` gives it back
   * when the transaction was refused, for the next attempt to carry.
   */
  take(actions: TransactActions): { items: TransactActions; settled: (committed: boolean) => void } | undefined {
    if (this.state !== 'waiting' || actions.length === 0) return undefined;
    const carriedBy = this.plan.carriedBy;
    if (carriedBy && !putItems(actions).some((item) => item.entity === carriedBy)) return undefined;
    const target = this.targetIn(actions);
    const record = target === undefined ? undefined : this.record(this.plan.action, target);
    if (!record) return undefined;
    this.state = 'sending';
    const [first] = actions;
    const tableName = (first.Put ?? first.Update ?? first.Delete ?? first.ConditionCheck)!.TableName!;
    return {
      items: auditRecordPuts(tableName, record),
      settled: (committed) => {
        this.state = committed ? 'written' : 'waiting';
      },
    };
  }

  /** The record of a refusal (`refusedAs`) of the person identified, when there is one to record. */
  refusal(): AuditRecord | undefined {
    const { refusedAs } = this.plan;
    if (!refusedAs || this.state !== 'waiting') return undefined;
    return this.record(refusedAs, this.actor && this.actor.type !== 'system' ? { type: 'user', id: this.actor.id } : null);
  }
}

/** The record's items: one per list it is read from (its mode's, or both for an action of no mode), kept a year, never overwritten. */
export function auditRecordPuts(tableName: string, record: AuditRecord): TransactActions {
  const expires = Math.floor(Date.parse(record.createdAt) / 1000) + AUDIT_RETENTION_DAYS * 86_400;
  return viewsOf(record).map((view) => ({
    Put: { TableName: tableName, Item: { ...auditEventEntity.item(record, { view }), [TTL_ATTRIBUTE]: expires }, ...IF_NEW },
  }));
}

const requests = new AsyncLocalStorage<RequestAudit>();

/** Runs `work` (an operation's use case) with its request's record waiting for the transaction that carries its change. */
export function withRequestAudit<T>(audit: RequestAudit, work: () => Promise<T>): Promise<T> {
  return requests.run(audit, work);
}

/** The record waiting in this request, if any. */
export const requestAudit = (): RequestAudit | undefined => requests.getStore();

/** The person this request acts as, once a public form's use case knows them (its `AuditActors` port). */
export function identifyActor(actor: Actor, orgId: string): void {
  requests.getStore()?.identify(actor, orgId);
}

/**
 * Logged when a request ends having committed single writes but no record: a route whose change
 * does not go through `transactWrite` (the audit test of every route finds it first). A record
 * carried by one entity only (`carriedBy`) is not owed by a request that made other writes (a
 * sign-in that owes its second factor writes its attempt windows and a pending sign-in).
 */
export function reportUnrecorded(audit: RequestAudit): void {
  if (audit.singleWrites > 0 && !audit.written && !audit.plan.carriedBy) logger.error('audit record not written', { action: audit.plan.action });
}
