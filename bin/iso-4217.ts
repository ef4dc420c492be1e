/**
 * `npm run iso-4217`: writes shared/iso-4217.ts, ISO 4217's currency codes by the digits of
 * their minor unit, from the `currency-codes` package (ISO's list one, docs/decisions.md 34).
 * The service reads the written table, about 1 KB, rather than the package (18 KB a bundle with
 * its names and countries); test/unit/money/iso-4217.test.ts holds the two equal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { data, publishDate } from 'currency-codes';
import { version } from 'currency-codes/package.json';

const CODES_PER_LINE = 24;

/** The source of shared/iso-4217.ts for the package's records. */
export function iso4217Module(records: { code: string; digits: number }[] = data): string {
  const byDigits = new Map<number, string[]>();
  for (const { code, digits } of [...records].sort((a, b) => a.code.localeCompare(b.code))) byDigits.set(digits, [...(byDigits.get(digits) ?? []), code]);
  const groups = [...byDigits]
    .sort(([a], [b]) => a - b)
    .map(([digits, codes]) => {
      const lines = [];
      for (let start = 0; start < codes.length; start += CODES_PER_LINE) lines.push(codes.slice(start, start + CODES_PER_LINE).join(' '));
      return `    ${digits}: \`${lines.join('\n       ')}\`,`;
    });
  return `/*
 * ISO 4217 list one (published ${publishDate}): every currency code by the digits of its minor
 * unit. Written by \`npm run iso-4217\` from currency-codes ${version}; do not edit.
 */
export const ISO_4217 = {
  published: '${publishDate}',
  codesByMinorDigits: {
${groups.join('\n')}
  },
} as const;
`;
}

if (require.main === module) writeFileSync(join(__dirname, '..', 'shared', 'iso-4217.ts'), iso4217Module());
