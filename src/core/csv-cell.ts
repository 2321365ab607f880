import type { Options } from 'csv-stringify';

/**
 * Where a spreadsheet starts reading a formula (OWASP "CSV injection"): a leading =, +, -, @, tab or
 * CR at the start of the cell or of any line inside it (a spreadsheet splits a quoted cell's lines).
 */
const FORMULA_AT_LINE_START = /(^|\r\n|\r|\n)([=+\-@\t\r])/g;

/** OWASP's advice: prefix such a start with a single quote so it stays text, on every line of the cell. */
export function safeCell(value: string | null | undefined): string {
  if (!value) return '';
  return value.replace(FORMULA_AT_LINE_START, "$1'$2");
}

/**
 * The csv-stringify options of every CSV we write: CRLF records, and any cell holding a CR or LF
 * quoted. csv-stringify quotes a cell holding the record delimiter (CRLF) but not a bare LF or CR,
 * which a spreadsheet would read as the start of a new row.
 */
export const CSV_OPTIONS: Options = { record_delimiter: 'windows', quoted_match: /[\r\n]/ };
