import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { data } from 'currency-codes';
import { iso4217Module } from '../../../bin/iso-4217';
import { formatForCustomer, minorDigitsOf } from '../../../shared/money';

describe('ISO 4217 table (shared/iso-4217.ts)', () => {
  test('table: it is what `npm run iso-4217` writes from the currency-codes package today', () => {
    // Act
    const written = readFileSync(join(__dirname, '../../../shared/iso-4217.ts'), 'utf8');

    // Assess
    expect(written).toBe(iso4217Module());
  });

  test('minorDigitsOf: every code of the package with its digits, in any letter case; nothing else', () => {
    for (const { code, digits } of data) {
      expect({ code, digits: minorDigitsOf(code) }).toEqual({ code, digits });
      expect({ code, digits: minorDigitsOf(code.toLowerCase()) }).toEqual({ code, digits });
    }
    for (const code of ['XYZ', 'EU', 'EURO', '', 'HRK']) expect({ code, digits: minorDigitsOf(code) }).toEqual({ code, digits: undefined });
  });

  test("formatForCustomer: the currency's own minor digits, from the service's hundredths, without floating point", () => {
    expect(formatForCustomer(100_000, 'JPY')).toBe('¥1,000');
    expect(formatForCustomer(4_990, 'eur')).toBe('€49.90');
    expect(formatForCustomer(1_050, 'HUF')).toBe('HUF\u00a010.50');
    expect(formatForCustomer(150, 'KWD')).toBe('KWD\u00a01.500');
    expect(formatForCustomer(999_999_999_999_999, 'EUR')).toBe('€9,999,999,999,999.99');
    expect(formatForCustomer(-250, 'EUR')).toBe('-€2.50');
  });
});
