import { CsvError, parse, type Options } from 'csv-parse';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileError, type CsvRow } from './csv.js';

/** At most this many data rows per import. */
export const MAX_IMPORT_ROWS = 50_000;
/** At most this many columns in a row (the apps write 12-20; banks fewer than 30). */
export const MAX_IMPORT_COLUMNS = 200;
/** At most this many characters in one row (cells included): a bound on what one record may hold. */
export const MAX_IMPORT_ROW_CHARS = 64 * 1024;
/** The header may sit below this many lines of preamble (banks write account details first). */
const HEADER_SEARCH_ROWS = 30;
/**
 * The file is decoded and parsed this many bytes at a time, the event loop free in between: csv-parse
 * parses a slice in one go, so this bounds one turn's work. A slice of one-character lines holds 2,000
 * records; as each differs in length from the header, csv-parse makes (and drops) an error for each:
 * about 25 ms for such a slice, a few ms for an ordinary one.
 */
const SLICE_BYTES = 4 * 1024;
/**
 * Records read between two turns of the event loop: records already parsed are handed over through
 * promises alone (microtasks), which never let other requests in.
 */
const RECORDS_PER_TURN = 500;

export type CsvEncoding = 'utf-8' | 'windows-1252';

/**
 * UTF-8 (with or without BOM) when the bytes are valid UTF-8, else Windows-1252, the superset of
 * ISO-8859-1 that the WHATWG Encoding standard reads for both labels (what German and other European
 * banks export). Checked slice by slice so a large file never becomes one decode call.
 */
export async function detectEncoding(bytes: Buffer): Promise<CsvEncoding> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  try {
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      utf8.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: true });
      if (at + SLICE_BYTES < bytes.length) await nextTurn();
    }
    utf8.decode();
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** Comma, semicolon (many European banks) or tab: whichever the first lines hold most of. */
export function delimiterOf(text: string): string {
  const head = text.slice(0, 16 * 1024).split(/\r?\n/).slice(0, 20).join('\n');
  const count = (d: string) => head.split(d).length - 1;
  return [',', ';', '\t'].reduce((best, d) => (count(d) > count(best) ? d : best), ',');
}

/**
 * csv-parse builds a CsvError (with its stack trace) for every row whose cell count differs from the
 * first row's, which `relax_column_count` then drops: 30 µs a row, 1.5 s for a file of 50,000 short
 * rows. The parser is fed with stack traces off: nothing else runs during the synchronous write, and
 * its errors become messages naming `file` anyway.
 */
function withoutStackTraces(work: () => void): void {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    work();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/**
 * The file's records: its text decoded and fed to csv-parse's parser SLICE_BYTES at a time, the
 * records of each slice read out of it synchronously, with a turn of the event loop after each slice
 * and every RECORDS_PER_TURN records.
 */
async function* parsedRecords(bytes: Buffer, encoding: CsvEncoding, options: Options): AsyncGenerator<ParsedRecord> {
  const parser = parse(options);
  let failure: unknown = null;
  parser.on('error', (error) => (failure ??= error));
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  let count = 0;
  try {
    for (let at = 0; at <= bytes.length; at += SLICE_BYTES) {
      const last = at + SLICE_BYTES > bytes.length;
      const text = decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: !last });
      withoutStackTraces(() => (last ? parser.end(text) : parser.write(text)));
      await nextTurn(); // the parser reports an error on the next tick
      for (let record = parser.read() as ParsedRecord | null; record !== null; record = parser.read() as ParsedRecord | null) {
        yield record;
        if (++count % RECORDS_PER_TURN === 0) await nextTurn();
      }
      if (failure) throw failure;
    }
  } finally {
    parser.destroy();
  }
}

export interface CsvStream {
  encoding: CsvEncoding;
  header: string[];
  /** The header's line in the file (1 without a preamble). */
  headerLine: number;
  /** The data rows after the header, `row` being the file's line where the record ends. */
  rows: AsyncGenerator<CsvRow>;
}

/**
 * Reads a CSV file as a stream of rows (csv-parse's streaming parser: RFC 4180 quoting, a BOM dropped,
 * cells trimmed, empty lines skipped). The caps are checked while reading: a row over
 * MAX_IMPORT_ROW_CHARS (so also a header of a million columns) or MAX_IMPORT_COLUMNS, or a file over
 * MAX_IMPORT_ROWS rows, is refused (a validation error naming `file`) as soon as it is met. The header
 * is the first row among the first lines that `isHeader` accepts (a bank's preamble is skipped), else
 * the first row.
 */
export async function openCsv(bytes: Buffer, isHeader: (cells: string[]) => boolean): Promise<CsvStream> {
  const encoding = await detectEncoding(bytes);
  const first = new TextDecoder(encoding).decode(bytes.subarray(0, 16 * 1024));
  const records = readRecords(parsedRecords(bytes, encoding, { delimiter: delimiterOf(first), trim: true, skip_empty_lines: true, relax_column_count: true, info: true, max_record_size: MAX_IMPORT_ROW_CHARS }));
  const leading: { record: string[]; line: number }[] = [];
  let header: { record: string[]; line: number } | undefined;
  try {
    for (;;) {
      const next = await records.next();
      if (next.done) break;
      leading.push(next.value);
      if (isHeader(next.value.record)) {
        header = next.value;
        break;
      }
      if (leading.length >= HEADER_SEARCH_ROWS) break;
    }
    header ??= leading[0];
    if (!header || !header.record.some((h) => h)) throw fileError('The file has no header row');
  } catch (error) {
    await records.return(undefined);
    throw error;
  }
  const names = header.record;
  const afterHeader = leading.slice(leading.indexOf(header) + 1);
  async function* rows(): AsyncGenerator<CsvRow> {
    let count = 0;
    const row = ({ record, line }: { record: string[]; line: number }): CsvRow => {
      if (++count > MAX_IMPORT_ROWS) throw fileError(`The file has more than ${MAX_IMPORT_ROWS} rows`);
      return { row: line, cells: Object.fromEntries(names.map((name, i) => [name, record[i] ?? ''])) };
    };
    try {
      for (const record of afterHeader) yield row(record);
      for await (const record of records) yield row(record);
    } finally {
      await records.return(undefined);
    }
  }
  return { encoding, header: names, headerLine: header.line, rows: rows() };
}

/** csv-parse's records with the column cap, its errors as a validation error naming `file`. */
async function* readRecords(parsed: AsyncGenerator<ParsedRecord>): AsyncGenerator<{ record: string[]; line: number }> {
  try {
    for await (const { record, info } of parsed) {
      if (record.length > MAX_IMPORT_COLUMNS) throw fileError(`Line ${info.lines} has more than ${MAX_IMPORT_COLUMNS} columns`);
      yield { record, line: info.lines };
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') throw fileError(`A row of the file is longer than ${MAX_IMPORT_ROW_CHARS} characters`);
    // Every csv-parse error (its codes are not all CSV_*: a quote inside an unquoted cell is INVALID_OPENING_QUOTE).
    if (error instanceof CsvError) throw fileError(`The file is not readable CSV: ${error.message}`);
    throw error;
  }
}

/** Every row of a small file at once (tests and the upload's checks use the streaming reader). */
export async function readAllRows(stream: CsvStream): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  for await (const row of stream.rows) rows.push(row);
  return rows;
}
