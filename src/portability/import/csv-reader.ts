import { parse } from 'csv-parse';
import { Readable } from 'node:stream';
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
/** The file is decoded and parsed this many bytes at a time, the event loop free in between. */
const SLICE_BYTES = 64 * 1024;

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

/** The file's text in slices, decoded, with a turn of the event loop between slices. */
async function* decodedSlices(bytes: Buffer, encoding: CsvEncoding): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { ignoreBOM: false });
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    yield decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: true });
    await nextTurn();
  }
  const rest = decoder.decode();
  if (rest) yield rest;
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
  const parser = Readable.from(decodedSlices(bytes, encoding)).pipe(
    parse({ delimiter: delimiterOf(first), trim: true, skip_empty_lines: true, relax_column_count: true, info: true, max_record_size: MAX_IMPORT_ROW_CHARS }),
  );
  const records = readRecords(parser);
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
    parser.destroy();
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
      parser.destroy();
    }
  }
  return { encoding, header: names, headerLine: header.line, rows: rows() };
}

/** csv-parse's records with the column cap, its errors as a validation error naming `file`. */
async function* readRecords(parser: AsyncIterable<{ record: string[]; info: { lines: number } }>): AsyncGenerator<{ record: string[]; line: number }> {
  try {
    for await (const { record, info } of parser) {
      if (record.length > MAX_IMPORT_COLUMNS) throw fileError(`Line ${info.lines} has more than ${MAX_IMPORT_COLUMNS} columns`);
      yield { record, line: info.lines };
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') throw fileError(`A row of the file is longer than ${MAX_IMPORT_ROW_CHARS} characters`);
    if ((error as { code?: string }).code?.startsWith('CSV_')) throw fileError(`The file is not readable CSV: ${(error as Error).message}`);
    throw error;
  }
}

/** Every row of a small file at once (tests and the upload's checks use the streaming reader). */
export async function readAllRows(stream: CsvStream): Promise<CsvRow[]> {
  const rows: CsvRow[] = [];
  for await (const row of stream.rows) rows.push(row);
  return rows;
}
