/**
 * The service's CSV (the settlement records, the reports): RFC 4180 with CRLF line ends, and
 * formula-safe. A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return as a formula (OWASP, "CSV Injection"), and a merchant's customer writes some of these
 * cells (a description, an email): such a cell is written with a leading `'`, which spreadsheets
 * show as text. A number is no formula and stays as it is (a debit's `-12.50` is still a number).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?\d+(\.\d+)?$/;

/** One field: made formula-safe, then quoted when it holds a comma, quote or line break (quotes doubled). */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) && !NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One row, with its line end. */
export const csvLine = (row: readonly string[]) => `${row.map(csvField).join(',')}\r\n`;

export function toCsv(rows: string[][]): string {
  return rows.map(csvLine).join('');
}
