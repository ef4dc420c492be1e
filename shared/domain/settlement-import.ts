import { createHash } from 'node:crypto';
import type * as z from '../zod';
import { BusinessRuleError } from '../errors';
import { newId } from '../ids';
import { isoMicros, toIsoMicros } from '../time';
import {
  SettlementImportDocument,
  toStoredClearings,
  toStoredRecord,
  type Settlement,
  type SettlementImportInput,
  storedAmount,
  type StoredRecord,
} from './settlements';

/** A feed document refused whole; the message names the settlement (by code) and the field. */
export class SettlementImportError extends BusinessRuleError {}

/** A concurrent import gave this settlement's code to another id first (the store's commit lost). */
export class SettlementCodeTakenError extends Error {
  constructor(readonly holderId: string) {
    super(`The settlement code is already held by ${holderId}`);
  }
}

/** A settlement ready to be written; the store assigns the record-set version. */
export type SettlementDraft = Omit<Settlement, 'recordsVersion'>;

/** What the import needs from storage (implemented by the settlement repository). */
export interface SettlementImportStore {
  organizationExists(orgId: string): Promise<boolean>;
  /** Strongly consistent. */
  findByCode(orgId: string, code: string): Promise<Settlement | undefined>;
  findById(id: string): Promise<Settlement | undefined>;
  /**
   * Writes the records as a new record set, then, in one transaction, the settlement pointing
   * at that set, its code alias and the balance change; finally drops the replaced set.
   * Does nothing when the stored settlement already has this content. Throws
   * SettlementCodeTakenError, having written nothing visible, when a concurrent first import
   * gave the code to another id.
   */
  save(settlement: SettlementDraft, records: StoredRecord[]): Promise<void>;
}

const formatPath = (path: PropertyKey[]) =>
  path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i ? '.' : ''}${String(part)}`)).join('');

function nameOf(input: unknown, index: number): string {
  const code = (input as { settlements?: { code?: unknown }[] })?.settlements?.[index]?.code;
  return typeof code === 'string' ? `settlement ${code} (settlements[${index}])` : `settlements[${index}]`;
}

const reject = (who: string, field: string, problem: string): never => {
  throw new SettlementImportError(`Settlement file refused, nothing imported: ${who}: ${field}: ${problem}`, field);
};

/** Validates the whole document with the output schemas; the first problem refuses it. */
export function parseSettlementDocument(document: unknown): SettlementImportInput[] {
  const result = SettlementImportDocument.safeParse(document);
  if (!result.success) {
    const issue: z.core.$ZodIssue = result.error.issues[0];
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
    if (path[0] !== 'settlements' || typeof path[1] !== 'number' || path.length < 3) {
      reject('document', formatPath(path) || '(root)', `${issue.message}; expected {"settlements": [ … ]}`);
    }
    reject(nameOf(document, path[1] as number), formatPath(path.slice(2)), issue.message);
  }
  const settlements = result.data!.settlements;
  const seenCodes = new Map<string, number>();
  const seenIds = new Map<string, number>();
  settlements.forEach((settlement, index) => {
    const who = `settlement ${settlement.code} (settlements[${index}])`;
    const codeKey = `${settlement.org_id}#${settlement.code}`;
    if (seenCodes.has(codeKey)) reject(who, 'code', `appears twice in the file (also settlements[${seenCodes.get(codeKey)}])`);
    seenCodes.set(codeKey, index);
    if (settlement.id !== undefined) {
      if (seenIds.has(settlement.id)) reject(who, 'id', `appears twice in the file (also settlements[${seenIds.get(settlement.id)}])`);
      seenIds.set(settlement.id, index);
    }
    const recordIds = new Map<string, number>();
    settlement.records.forEach((record, i) => {
      if (record.object === 'payment' && record.org_id !== settlement.org_id) {
        reject(who, `records[${i}].org_id`, `must be the settlement's organization ${settlement.org_id}`);
      }
      if (!('id' in record)) return;
      if (recordIds.has(record.id)) reject(who, `records[${i}].id`, `${record.id} appears twice (also records[${recordIds.get(record.id)}])`);
      recordIds.set(record.id, i);
    });
  });
  return settlements;
}

/** The stored form of one validated settlement; `existing` is what the same code holds now. */
export function settlementDraft(input: SettlementImportInput, id: string, existing: Settlement | undefined, now: Date): SettlementDraft {
  const stamp = isoMicros(now);
  return {
    id,
    orgId: input.org_id,
    mode: 'live',
    code: input.code,
    status: input.status,
    settlementDate: input.settlement_date,
    confirmationDate: input.confirmation_date,
    ...storedAmount(input.amount),
    clearingAccount: input.clearing_account,
    clearings: toStoredClearings(input.clearings),
    createdAt: input.created_at ? toIsoMicros(input.created_at) : (existing?.createdAt ?? stamp),
    updatedAt: input.updated_at ? toIsoMicros(input.updated_at) : stamp,
    recordCount: input.records.length,
    contentHash: createHash('sha256').update(JSON.stringify(input)).digest('hex'),
  };
}

/**
 * Imports an acquirer settlement feed document `{"settlements": [ … ]}` (product-decisions §11):
 * 1. validate the whole document with the output schemas; the first problem refuses it whole;
 * 2. check, still writing nothing, that every organization exists and that every given id
 *    agrees with what its code already holds (re-importing a code updates that settlement);
 * 3. save each settlement: its records become visible together with it, never partially, and
 *    its amount debits the organization's live balance once (a re-import adjusts by the
 *    difference).
 */
export async function importSettlements(
  store: SettlementImportStore,
  document: unknown,
  now: Date,
): Promise<{ imported: number }> {
  const inputs = parseSettlementDocument(document);
  const plans: { input: SettlementImportInput; draft: SettlementDraft; records: StoredRecord[] }[] = [];
  for (const [index, input] of inputs.entries()) {
    const who = `settlement ${input.code} (settlements[${index}])`;
    if (!(await store.organizationExists(input.org_id))) reject(who, 'org_id', `organization ${input.org_id} does not exist`);
    const existing = await store.findByCode(input.org_id, input.code);
    if (input.id !== undefined && existing && existing.id !== input.id) {
      reject(who, 'id', `${input.id} does not match ${existing.id}, already imported with this code`);
    }
    if (input.id !== undefined && !existing) {
      const holder = await store.findById(input.id);
      if (holder) reject(who, 'id', `${input.id} already belongs to settlement ${holder.code}`);
    }
    const id = existing?.id ?? input.id ?? newId('settlement', now.getTime());
    plans.push({ input, draft: settlementDraft(input, id, existing, now), records: input.records.map(toStoredRecord) });
  }
  for (const { input, draft, records } of plans) {
    try {
      await store.save(draft, records);
    } catch (error) {
      // Two first imports of one code raced and the other won: this one updates the winner.
      if (!(error instanceof SettlementCodeTakenError) || input.id !== undefined) throw error;
      const winner = await store.findById(error.holderId);
      await store.save(settlementDraft(input, error.holderId, winner, now), records);
    }
  }
  return { imported: plans.length };
}
