import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entities, refundDue } from '../../../shared/db/entities';
import { INDEXES, type IndexName } from '../../../shared/db/table';

/** docs/architecture.md's item table, row by row: entity, PK, SK, index keys. */
function itemTable(): string[][] {
  const markdown = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'architecture.md'), 'utf8');
  const lines = markdown.split('\n');
  const header = lines.findIndex((line) => line.startsWith('| Entity | PK | SK |'));
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

const code = (template: string) => `\`${template}\``;

describe('Entity layer: docs/architecture.md', () => {
  const rows = itemTable();
  const rowOf = (label: string) => rows.find(([entity]) => entity === label || entity.startsWith(`${label} (`));

  test('the item table has one row per entity definition, and none more', () => {
    const documented = new Set(entities.map(({ definition }) => rowOf(definition.label)?.[0]));
    expect(rows.filter(([entity]) => !documented.has(entity))).toEqual([]);
    expect(rows).toHaveLength(entities.length);
  });

  test.each(entities.map(({ definition }) => [definition.label, definition] as const))('%s: the row states its key and index key formats', (_label, definition) => {
    const row = rowOf(definition.label);
    expect(row).toBeDefined();
    const [, pk, sk, indexes] = row!;
    expect(pk).toBe(code(definition.key.pk));
    expect(sk.startsWith(code(definition.key.sk))).toBe(true);
    for (const [index, format] of Object.entries(definition.indexes ?? {}) as [IndexName, { pk: string; subPartitions?: number }][]) {
      // A partition chosen by state (the refund's DUE) is documented with its possible values below.
      if (/^\{\w+\}$/.test(format.pk)) continue;
      // A split list's key is followed by its number of sub-partitions (`×8`); an unsplit one's by nothing of the kind.
      const documented = `${INDEXES[index].name} ${code(format.pk)}`;
      expect(indexes).toContain(format.subPartitions ? `${documented} ×${format.subPartitions}` : documented);
      if (!format.subPartitions) expect(indexes).not.toContain(`${documented} ×`);
    }
  });

  test("a refund's two DUE partitions are the ones documented", () => {
    expect(rowOf('Refund')![3]).toContain(`DUE ${code(refundDue.holdQueue)}`);
    expect(rowOf('Refund')![3]).toContain(code(refundDue.processing));
    expect(rowOf('Refund')![3]).toContain(code(refundDue.covered));
  });
});
