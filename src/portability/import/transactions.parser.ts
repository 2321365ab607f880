import { ValidationError, type FieldError } from '../../core/errors.js';
import { requireMoney } from '../../core/money.js';
import { calendarDate, optionalText, Refusals, refuse, RowRefusal, type CsvTable } from './csv.js';

/** Which CSV column holds each field of a transaction (the request's `mapping`). */
export interface ColumnMapping {
  date: string;
  amount: string;
  description: string;
  category?: string;
}

const MAPPING_KEYS = ['date', 'amount', 'description', 'category'] as const;
const DESCRIPTION_MAX = 500;
const CATEGORY_MAX = 100;

/** The `mapping` form field: a JSON object naming a column for date, amount, description and optionally category. */
export function readMapping(raw: string | undefined): ColumnMapping {
  const fail = (message: string, path: (string | number)[] = ['mapping']): never => {
    throw new ValidationError(message, [{ path, message }]);
  };
  if (raw === undefined || raw === '') return fail('mapping is required');
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return fail('mapping must be a JSON object');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('mapping must be a JSON object');
  const errors: FieldError[] = [];
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(MAPPING_KEYS as readonly string[]).includes(key)) errors.push({ path: ['mapping', key], message: `mapping.${key} is not a field (use ${MAPPING_KEYS.join(', ')})` });
  }
  for (const key of MAPPING_KEYS) {
    const column = record[key];
    if (column === undefined && key === 'category') continue;
    if (typeof column !== 'string' || !column.trim()) errors.push({ path: ['mapping', key], message: `mapping.${key} must name a column` });
  }
  if (errors.length) throw new ValidationError('Invalid mapping', errors);
  return record as unknown as ColumnMapping;
}

/** Every mapped column must be in the file's header; else 400 naming the mapping key. */
export function checkMapping(mapping: ColumnMapping, table: CsvTable): void {
  const errors: FieldError[] = [];
  for (const key of MAPPING_KEYS) {
    const column = mapping[key];
    if (column !== undefined && !table.header.includes(column.trim())) errors.push({ path: ['mapping', key], message: `the file has no column ${JSON.stringify(column)}` });
  }
  if (errors.length) throw new ValidationError('The mapping names columns the file does not have', errors);
}

/**
 * A bank's date: ISO `2024-01-15` (or `2024/01/15`), or day first as `15.01.2024` or `15/01/2024` (the
 * European banks' order; a month-first US date is read day first, or refused when that is no date).
 */
export function parseBankDate(value: string, column: string): string {
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(value);
  let date: string | null = null;
  if (m) date = calendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
  else if ((m = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(value))) date = calendarDate(Number(m[3]), Number(m[2]), Number(m[1]));
  if (!date) refuse(`${column} is not a date like 2024-01-15 or 15.01.2024 (got ${JSON.stringify(value.slice(0, 20))})`);
  return date;
}

/**
 * A bank's amount as exact decimal text: `-12.50`, `1,234.56`, `-12,50`, `1.234,56`, `€ 3.20`,
 * `(12.50)` for a debit. The last `.` or `,` followed by one or two digits is the decimal point; other
 * separators group thousands. The result follows the Money rules (src/core/money.ts).
 */
export function parseBankAmount(value: string, column: string): string {
  let text = value.replace(/[\s\u00a0'\u2019]/g, '').replace(/^[^\d+\-(]+|[^\d)]+$/g, '');
  let negative = false;
  if (/^\(.*\)$/.test(text)) {
    negative = true;
    text = text.slice(1, -1);
  }
  if (/^[+-]/.test(text)) {
    negative = negative !== (text[0] === '-');
    text = text.slice(1);
  }
  // One grouping separator throughout, and a decimal point that is the other one.
  const m = /^(\d{1,3}(?:([.,])\d{3})?(?:\2\d{3})*|\d+)(?:([.,])(\d{1,2}))?$/.exec(text);
  if (!m || (m[2] && m[3] && m[2] === m[3])) refuse(`${column} is not an amount like -12.50 (got ${JSON.stringify(value.slice(0, 20))})`);
  const whole = m[1]!.replace(/[.,]/g, '').replace(/^0+(?=\d)/, '');
  const exact = `${negative && /[1-9]/.test(whole + (m[4] ?? '')) ? '-' : ''}${whole}${m[4] ? `.${m[4]}` : ''}`;
  try {
    return requireMoney(exact, column);
  } catch {
    return refuse(`${column} is beyond 999999999.99 in absolute value`);
  }
}

export interface ImportedTransaction {
  row: number;
  date: string;
  amount: string;
  description: string | null;
  category: string | null;
}

export function parseTransactions(table: CsvTable, mapping: ColumnMapping): { transactions: ImportedTransaction[]; refusals: Refusals } {
  checkMapping(mapping, table);
  const refusals = new Refusals();
  const transactions: ImportedTransaction[] = [];
  const col = (key: keyof ColumnMapping) => mapping[key]!.trim();
  for (const { row, cells } of table.rows) {
    try {
      transactions.push({
        row,
        date: parseBankDate(cells[col('date')] ?? '', col('date')),
        amount: parseBankAmount(cells[col('amount')] ?? '', col('amount')),
        description: optionalText(cells[col('description')] ?? '', col('description'), DESCRIPTION_MAX),
        category: mapping.category ? optionalText(cells[col('category')] ?? '', col('category'), CATEGORY_MAX) : null,
      });
    } catch (error) {
      if (!(error instanceof RowRefusal)) throw error;
      refusals.add(row, error.message);
    }
  }
  return { transactions, refusals };
}
