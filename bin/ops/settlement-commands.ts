import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readFile, writeFile } from 'node:fs/promises';
import { createSettlementRepository } from '../../shared/db/settlement-repository';
import { SettlementImportError, importSettlements } from '../../shared/domain/settlement-import';
import { recordsCsv, type Settlement } from '../../shared/domain/settlements';
import { TextOutput, UsageError, type OpsCommand } from './cli';

async function readDocument(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new SettlementImportError(`Settlement file refused, nothing imported: ${file} is not valid JSON`);
  }
}

/** `settlement import` (product-decisions §11) and `settlement export` (CSV for accountants). */
export function settlementCommands(db: () => DynamoDBDocumentClient, tableName: string): OpsCommand[] {
  const repository = () => createSettlementRepository(db(), tableName);

  /** By `stl_` id, or by code within --org, or by a code that only one organization uses. */
  async function findSettlement(codeOrId: string, orgId: string | undefined): Promise<Settlement> {
    const settlements = repository();
    const byId = await settlements.getById(codeOrId);
    if (byId && (orgId === undefined || byId.orgId === orgId)) return byId;
    const matches = (await settlements.findAllByCode(codeOrId)).filter((found) => orgId === undefined || found.orgId === orgId);
    if (matches.length > 1) {
      throw new UsageError(`Code ${codeOrId} is used by several organizations (${matches.map((s) => s.orgId).join(', ')}); give --org`);
    }
    if (matches.length === 0) throw new UsageError(`No settlement ${codeOrId}${orgId ? ` in ${orgId}` : ''}`);
    return (await settlements.getById(matches[0].id)) ?? matches[0];
  }

  return [
    {
      words: 'settlement import',
      usage: '--file F.json',
      options: { file: { type: 'string', required: true } },
      run: async ({ file }) => importSettlements(repository().store, await readDocument(String(file)), new Date()),
    },
    {
      words: 'settlement export',
      usage: '--code CODE|stl_ID --format csv [--org ORG] [--out FILE]   (CSV on stdout; with --out: {"written": n})',
      options: {
        code: { type: 'string', required: true },
        format: { type: 'string', required: true },
        org: { type: 'string' },
        out: { type: 'string' },
      },
      run: async (values) => {
        if (values.format !== 'csv') throw new UsageError('--format must be csv');
        const settlement = await findSettlement(String(values.code), values.org === undefined ? undefined : String(values.org));
        const records = await repository().allRecords(settlement);
        const csv = recordsCsv(records);
        if (values.out === undefined) return new TextOutput(csv);
        await writeFile(String(values.out), csv, 'utf8');
        return { written: records.length };
      },
    },
  ];
}
