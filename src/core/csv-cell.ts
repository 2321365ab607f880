/** Cells a spreadsheet would read as a formula (OWASP "CSV injection"): a leading =, +, -, @, tab or CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** OWASP's advice: prefix such a cell with a single quote so it stays text. */
export function safeCell(value: string | null | undefined): string {
  if (!value) return '';
  return FORMULA_START.test(value) ? `'${value}` : value;
}
