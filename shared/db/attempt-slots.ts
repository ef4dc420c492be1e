import { PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import type { AttemptSlots } from '../domain/webhook-delivery';
import { logger } from '../observability/logger';
import { conditionalWrite } from './conditional';
import { attemptSlotEntity } from './entities';
import { KEY, TTL_ATTRIBUTE } from './table';
import { sleep } from '../time';

/** A slot item stays a day past its lease, for whoever investigates, then TTL removes it. */
const KEPT_AFTER_LEASE_SECONDS = 86_400;

/**
 * While every slot of a tenant was taken less than this long ago, its endpoints are answering
 * as attempts normally do, and one comes free soon: the batch waits for it (polling every
 * `BUSY_POLL_MS`) instead of postponing its deliveries by SQS's whole seconds. A slot held longer
 * (a slow or dead endpoint) is not waited for: the poller goes back to everyone else at once.
 */
export const FRESH_HOLD_MS = 1_000;
const BUSY_POLL_MS = 50;

/**
 * Attempt slots as leases in the table, `perTenant` items per tenant: one Query reads which are
 * held, one conditional PutItem takes a free or expired one (two processes racing for it: one
 * wins, the other tries the next), and an UpdateItem conditioned on the holder's token ends the
 * lease (the deliverer's role has no DeleteItem; TTL removes idle slots). Nothing is held in
 * memory, so the cap holds across every Lambda instance; a holder that died frees its slot when
 * the lease ends. When every slot is held by attempts begun under `FRESH_HOLD_MS` ago (a slot
 * lost to another taker between the Query and the PutItem counts from that taker's lease), `take`
 * waits for one to come free, at most that long. A PutItem that the SDK retried after its first
 * try took the slot finds this taker's own lease, and the slot is taken.
 */
export function createAttemptSlots(db: DynamoDBDocumentClient, tableName: string, perTenant: number, now: () => number = Date.now): AttemptSlots {
  const key = (tenant: string, slot: number) => attemptSlotEntity.key({ tenant, slot });

  /** Each held slot and when its lease began. */
  async function leasesHeld(tenant: string, at: number, leaseMs: number): Promise<Map<number, number>> {
    const result = await db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': KEY.pk },
        ExpressionAttributeValues: { ':pk': key(tenant, 0).PK },
        ProjectionExpression: 'slot, leaseUntil',
        ConsistentRead: true,
      }),
    );
    return new Map((result.Items ?? []).filter((item) => item.leaseUntil > at).map((item) => [item.slot as number, (item.leaseUntil as number) - leaseMs]));
  }

  /** One look at the tenant's slots: a free or expired one taken, or when each held one was taken. */
  async function tryTake(tenant: string, leaseMs: number): Promise<{ release: () => Promise<void> } | { heldSince: number[] }> {
    const at = now();
    const held = await leasesHeld(tenant, at, leaseMs);
    const free = Array.from({ length: perTenant }, (_, slot) => slot).filter((slot) => !held.has(slot));
    for (const slot of free) {
      const holder = randomUUID();
      const taken = await conditionalWrite(
        async () => {
          await db.send(
            new PutCommand({
              TableName: tableName,
              Item: {
                ...attemptSlotEntity.item({ slot, holder, leaseUntil: at + leaseMs }, { tenant }),
                [TTL_ATTRIBUTE]: Math.ceil((at + leaseMs) / 1000) + KEPT_AFTER_LEASE_SECONDS,
              },
              ConditionExpression: 'attribute_not_exists(#pk) OR leaseUntil <= :now',
              ExpressionAttributeNames: { '#pk': KEY.pk },
              ExpressionAttributeValues: { ':now': at },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }),
          );
          return true;
        },
        (lease) => {
          // The SDK retried a PutItem whose first try took the slot but lost its answer: the lease is this taker's.
          if (lease?.holder === holder) return true;
          // Another attempt took it since the Query.
          held.set(slot, typeof lease?.leaseUntil === 'number' ? lease.leaseUntil - leaseMs : at);
          return false;
        },
      );
      if (taken) return { release: () => giveBack(tenant, slot, holder) };
    }
    return { heldSince: [...held.values()] };
  }

  return {
    async take(tenant, leaseMs) {
      // The wait is bounded in real time, looks included: a poller waits a second at most, however slow the table answers.
      const waitUntil = Date.now() + FRESH_HOLD_MS;
      for (;;) {
        const answer = await tryTake(tenant, leaseMs);
        if ('release' in answer) return answer.release;
        const fresh = answer.heldSince.length > 0 && answer.heldSince.every((takenAt) => now() - takenAt < FRESH_HOLD_MS);
        if (!fresh || Date.now() + BUSY_POLL_MS >= waitUntil) return undefined;
        await sleep(BUSY_POLL_MS);
      }
    },
  };

  /** Never throws: the attempt it guarded is made, and a slot not given back frees itself with its lease. */
  async function giveBack(tenant: string, slot: number, holder: string): Promise<void> {
    try {
      await conditionalWrite(
        () =>
          db.send(
            new UpdateCommand({
              TableName: tableName,
              Key: key(tenant, slot),
              UpdateExpression: 'SET leaseUntil = :ended REMOVE holder',
              ConditionExpression: 'holder = :holder',
              ExpressionAttributeValues: { ':holder': holder, ':ended': 0 },
            }),
          ),
        () => undefined, // the lease ended and another attempt holds the slot now
      );
    } catch (error) {
      logger.warn('webhook attempt slot not given back; it frees itself when its lease ends', { tenant, slot, error: (error as Error).message });
    }
  }
}
