import { fromCurrencyMinorUnits, sameMoney, toCurrencyMinorUnits } from '../../../shared/money';

/**
 * The service counts hundredths in every currency, an acquirer the currency's own minor unit
 * (ISO 4217's exponent): the money module converts between the two exactly, both ways, so an
 * amount the service cannot hold equals none of its amounts (issue 40 item 4).
 */
describe('Money: hundredths and a currency\'s own minor unit', () => {
  test.each<[string, number, string, number]>([
    ['EUR 10.50 is 1050 cents', 1050, 'EUR', 1050],
    ['JPY 1,000 is 1000 yen', 100_000, 'JPY', 1000],
    ['KWD 1.23 is 1230 fils', 123, 'KWD', 1230],
    ['BHD 0.10 is 100 fils', 10, 'bhd', 100],
    ['TND 999,999,999.99 is 999,999,999,990 millimes', 99_999_999_999, 'TND', 999_999_999_990],
    ['CLF 1.23 is 12300 ten-thousandths', 123, 'CLF', 12_300],
  ])('%s, and back', (_rule, minor, currency, units) => {
    expect(toCurrencyMinorUnits({ minor, currency })).toBe(units);
    expect(fromCurrencyMinorUnits(units, currency)).toEqual({ minor, currency: currency.toUpperCase() });
  });

  test.each<[string, number, string]>([
    ['KWD 1.225', 1225, 'KWD'],
    ['KWD 1.229', 1229, 'KWD'],
    ['KWD 1.234', 1234, 'KWD'],
    ['JOD 0.001', 1, 'JOD'],
    ['OMR -0.005', -5, 'OMR'],
    ['CLF 1.2301', 12_301, 'CLF'],
    ['a fraction of a cent', 10.5, 'EUR'],
  ])('%s has a digit no amount here has: no amount, never the nearest one', (_rule, units, currency) => {
    expect(fromCurrencyMinorUnits(units, currency)).toBeUndefined();
    expect(sameMoney(fromCurrencyMinorUnits(units, currency), { minor: 123, currency })).toBe(false);
  });

  test('a fraction of a yen is not an amount the acquirer can be sent: RangeError, never rounded', () => {
    expect(() => toCurrencyMinorUnits({ minor: 100_050, currency: 'JPY' })).toThrow(RangeError);
  });

  test('sameMoney: the same amount in the same currency, letter case aside', () => {
    expect(sameMoney({ minor: 123, currency: 'kwd' }, { minor: 123, currency: 'KWD' })).toBe(true);
    expect(sameMoney({ minor: 123, currency: 'KWD' }, { minor: 123, currency: 'BHD' })).toBe(false);
    expect(sameMoney(null, { minor: 123, currency: 'KWD' })).toBe(false);
  });
});
