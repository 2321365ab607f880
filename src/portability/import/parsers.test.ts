import { describe, expect, it } from 'vitest';
import type { Exercise } from '../../training/exercise.entity.js';
import { RowRefusal, zonedInstant } from './csv.js';
import { delimiterOf, MAX_IMPORT_COLUMNS, MAX_IMPORT_ROW_CHARS, MAX_IMPORT_ROWS, openCsv, readAllRows } from './csv-reader.js';
import { APP_NAMES, ExerciseMatcher } from './exercise-matcher.js';
import { GLOBAL_EXERCISES } from '../../training/exercise-catalog.seed.js';
import { parseDuration, parseWorkouts, parseWorkoutTime, STRONG_COLUMNS } from './strong.parser.js';
import { parseBankAmount, parseBankDate, readMapping } from './transactions.parser.js';

/** The cell readers of the CSV imports (no database): what each accepts, and that the rest is refused. */
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof RowRefusal ? error.message : `not a refusal: ${String(error)}`;
  }
  return 'accepted';
};

describe('bank cells', () => {
  it('reads amounts in the usual notations as exact Money text', () => {
    const cases: [string, string][] = [
      ['-12.50', '-12.50'],
      ['12,5', '12.5'],
      ['1,234.56', '1234.56'],
      ['1.234,56', '1234.56'],
      ['-2.450,00', '-2450.00'],
      ['€ 3.20', '3.20'],
      ['(12.50)', '-12.50'],
      ['+7', '7'],
      ['-0,00', '0.00'],
      ['999999999.99', '999999999.99'],
      ['1.005', '1005'], // three digits after the only separator group thousands
    ];
    for (const [text, exact] of cases) expect(parseBankAmount(text, 'Amount'), text).toBe(exact);
    for (const bad of ['', 'abc', '1.2.3,4,5', '12.345.6', '1000000000.00', '1.0055', '12.5.00']) expect(refusal(() => parseBankAmount(bad, 'Amount')), bad).toMatch(/Amount/);
  });

  it('reads ISO and day-first dates; impossible dates are refused', () => {
    expect(parseBankDate('2026-11-03', 'd')).toBe('2026-11-03');
    expect(parseBankDate('2026/11/03', 'd')).toBe('2026-11-03');
    expect(parseBankDate('03.11.2026', 'd')).toBe('2026-11-03');
    expect(parseBankDate('3/11/2026', 'd')).toBe('2026-11-03');
    for (const bad of ['31.11.2026', '2026-02-30', '11/31/2026', 'yesterday', '']) expect(refusal(() => parseBankDate(bad, 'd')), bad).toMatch(/not a date/);
  });

  it('checks the mapping object', () => {
    expect(readMapping('{"date":"D","amount":"A","description":"P"}')).toEqual({ date: 'D', amount: 'A', description: 'P' });
    for (const bad of [undefined, '', '[]', 'null', '{"date":"D","amount":"A"}', '{"date":"D","amount":"A","description":""}', '{"date":"D","amount":"A","description":"P","x":"y"}', '{"date":1,"amount":"A","description":"P"}']) {
      expect(() => readMapping(bad), String(bad)).toThrow();
    }
  });
});

describe('workout cells', () => {
  it("reads Strong's zeros as not logged: cardio rows stay cardio, strength sets get no distance note, loads lose float noise", () => {
    const cells = (values: string[]) => Object.fromEntries(STRONG_COLUMNS.map((name, i) => [name, values[i] ?? '']));
    const rows = [
      ['2024-01-15 07:30:00', 'Mixed', '1h', 'Rowing (Machine)', '1', '0', '0', '2000', '480', '', '', ''],
      ['2024-01-15 07:30:00', 'Mixed', '1h', 'Squat (Barbell)', '1', '125.00000000000001', '5', '0', '0', '', '', ''],
      ['2024-01-15 07:30:00', 'Mixed', '1h', 'Pull Up', '1', '0', '8', '0', '0', '', '', ''],
      ['2024-01-15 07:30:00', 'Mixed', '1h', 'Elliptical Machine', '1', '0', '0', '0', '1200', '', '', ''],
    ].map((values, i) => ({ row: i + 2, cells: cells(values) }));
    const { workouts, refusals } = parseWorkouts({ header: [...STRONG_COLUMNS], rows });
    expect(refusals.rows).toEqual([]);
    const [rowing, squat, pullUp, elliptical] = workouts[0]!.exercises;
    expect(rowing).toMatchObject({ name: 'Rowing (Machine)', timed: true, sets: [{ reps: null, load: null, notes: 'distance 2000; 480 s' }] });
    expect(squat).toMatchObject({ timed: false, sets: [{ reps: 5, load: 125, notes: null }] });
    expect(pullUp).toMatchObject({ timed: false, sets: [{ reps: 8, load: 0, notes: null }] }); // bodyweight
    expect(elliptical).toMatchObject({ timed: true, sets: [{ reps: null, load: null, notes: '1200 s' }] });
  });

  it('reads Strong and Hevy start times and Strong durations', () => {
    expect(parseWorkoutTime('2024-01-15 07:30:00', 'Date')).toEqual({ date: '2024-01-15', hour: 7, minute: 30, second: 0 });
    expect(parseWorkoutTime('26 Jul 2025, 07:06', 'start_time')).toEqual({ date: '2025-07-26', hour: 7, minute: 6, second: 0 });
    expect(parseWorkoutTime('2025-07-26T19:05', 'x')).toEqual({ date: '2025-07-26', hour: 19, minute: 5, second: 0 });
    for (const bad of ['2024-02-30 07:00:00', '2024-01-15 25:00:00', '31 Foo 2024, 07:00', '15/01/2024']) expect(refusal(() => parseWorkoutTime(bad, 'Date')), bad).toMatch(/Date/);
    expect(parseDuration('1h 5m')).toBe(65);
    expect(parseDuration('45m')).toBe(45);
    expect(parseDuration('2h')).toBe(120);
    expect(parseDuration('')).toBeNull();
    expect(refusal(() => parseDuration('long'))).toMatch(/Duration/);
  });

  it("matches Strong's and Hevy's names to the global catalog, never to another movement", () => {
    const catalog = GLOBAL_EXERCISES.map((e) => ({ id: e.name, name: e.name, isGlobal: true }) as unknown as Exercise);
    const matcher = new ExerciseMatcher(catalog);
    const catalogNames = new Set(GLOBAL_EXERCISES.map((e) => e.name));
    for (const target of Object.values(APP_NAMES)) expect(catalogNames.has(target), target).toBe(true);
    const cases: [string, string | undefined][] = [
      ['Squat (Barbell)', 'Barbell Back Squat'],
      ['Bench Press (Barbell)', 'Bench Press'],
      ['Bench Press (Dumbbell)', 'Dumbbell Bench Press'],
      ['Incline Bench Press (Dumbbell)', 'Incline Dumbbell Press'],
      ['Deadlift (Barbell)', 'Deadlift'],
      ['Romanian Deadlift (Barbell)', 'Romanian Deadlift'],
      ['Overhead Press (Barbell)', 'Overhead Press'],
      ['Bent Over Row (Barbell)', 'Barbell Row'],
      ['Pull Up', 'Pull-Up'],
      ['Chin Up', 'Chin-Up'],
      ['Lat Pulldown (Cable)', 'Lat Pulldown'],
      ['Seated Row (Cable)', 'Seated Cable Row'],
      ['Bicep Curl (Barbell)', 'Barbell Curl'],
      ['Bicep Curl (Dumbbell)', 'Dumbbell Curl'],
      ['Hammer Curl (Dumbbell)', 'Hammer Curl'],
      ['Triceps Pushdown (Cable - Straight Bar)', 'Triceps Pushdown'],
      ['Skullcrusher (Barbell)', 'Skull Crusher'],
      ['Leg Press', 'Leg Press'],
      ['Leg Extension (Machine)', 'Leg Extension'],
      ['Lying Leg Curl (Machine)', 'Leg Curl'],
      ['Hip Thrust (Barbell)', 'Hip Thrust'],
      ['Lateral Raise (Dumbbell)', 'Lateral Raise'],
      ['Face Pull (Cable)', 'Face Pull'],
      ['Push Up', 'Push-Up'],
      ['Plank', 'Plank'],
      ['Front Squat (Barbell)', 'Front Squat'],
      ['Goblet Squat (Kettlebell)', 'Kettlebell Goblet Squat'],
      ['Goblet Squat (Dumbbell)', 'Goblet Squat'],
      ['Standing Calf Raise (Machine)', 'Standing Calf Raise'],
      ['Shrug (Dumbbell)', 'Dumbbell Shrug'],
      ['Arnold Press (Dumbbell)', 'Arnold Press'],
      // Other movements than any catalog entry: the user's own exercise, not a near miss.
      ['Bench Press (Smith Machine)', undefined],
      ['Squat (Smith Machine)', undefined],
      ['Pull Up (Assisted)', undefined],
      ['Rowing (Machine)', undefined],
      ['Running', undefined],
    ];
    for (const [app, expected] of cases) expect(matcher.find(app)?.name, app).toBe(expected);
  });

  it('matches exercise names to the catalog by their words, the implied barbell dropped, own exercises first', () => {
    const ex = (name: string, isGlobal = true) => ({ id: name, name, isGlobal }) as unknown as Exercise;
    const matcher = new ExerciseMatcher([ex('Bench Press'), ex('Hammer Curl'), ex('Pull-Up'), ex('Dumbbell Bench Press'), ex('Deadlift'), ex('deadlift', false)]);
    expect(matcher.find('Bench Press (Barbell)')?.name).toBe('Bench Press');
    expect(matcher.find('bench  press')?.name).toBe('Bench Press');
    expect(matcher.find('Bench Press (Dumbbell)')?.name).toBe('Dumbbell Bench Press');
    expect(matcher.find('Curls, Hammer')?.name).toBe('Hammer Curl');
    expect(matcher.find('Pull Up')?.name).toBe('Pull-Up');
    expect(matcher.find('Deadlift')?.isGlobal).toBe(false);
    expect(matcher.find('Bench Press (Machine)')).toBeUndefined();
  });
});

describe('csv', () => {
  const anyHeader = () => true;
  const read = async (text: string | Buffer, isHeader: (cells: string[]) => boolean = anyHeader) => {
    const csv = await openCsv(Buffer.from(text), isHeader);
    return { ...csv, rows: await readAllRows(csv) };
  };

  it('finds the delimiter from the first lines and numbers rows by their line', async () => {
    expect(delimiterOf('a;b;c\n1;2;3')).toBe(';');
    expect(delimiterOf('a\tb\n')).toBe('\t');
    expect(delimiterOf('a,b;c,d\n')).toBe(',');
    const table = await read('\uFEFFa;b\n1;2\n\n"x\ny";3\n');
    expect(table.header).toEqual(['a', 'b']);
    expect(table.encoding).toBe('utf-8');
    expect(table.rows).toEqual([
      { row: 2, cells: { a: '1', b: '2' } },
      { row: 5, cells: { a: 'x\ny', b: '3' } },
    ]);
    await expect(read('')).rejects.toThrow(/header/);
    await expect(read('a,"b\n1,2')).rejects.toThrow(/not readable CSV/);
    // A quote inside an unquoted cell (an ISBN as ="0439023483" written without the quotes around it) is a file error, not a crash.
    await expect(read('Title,ISBN\nDune,="0439023483"\n')).rejects.toThrow(/not readable CSV: Invalid Opening Quote/);
  });

  it('reads a bank file as the bank wrote it: ISO-8859-1, a preamble above the header, decimal commas', async () => {
    const preamble = ['"Umsatzanzeige";"Girokonto"', '"Kontonummer:";"1234567"', '"BLZ:";"10010010"', '"Zeitraum:";"01.01.2026 - 31.01.2026"', '"Kontostand vom 31.01.2026:";"1.172,12 EUR"', '', '"Weitere Angaben:";"keine"', '"Erstellt am:";"01.02.2026"', '"Bank:";"Sparkasse Köln"', '"Währung:";"EUR"', '"Kontoinhaber:";"Jürgen Müller"', '"IBAN:";"DE00 1001 0010 0123 4567 89"', '"BIC:";"PBNKDEFF"', '""'];
    const lines = [...preamble, '"Buchungstag";"Valuta";"Auftraggeber/Empfänger";"Verwendungszweck";"Betrag (EUR)"', '"03.01.2026";"03.01.2026";"Bäckerei Öztürk";"Brötchen";"-4,80"', '"15.01.2026";"15.01.2026";"Arbeitgeber GmbH";"Gehalt Januar";"1172,12"'];
    const latin1 = Buffer.from(lines.join('\r\n') + '\r\n', 'latin1');
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(latin1)).toThrow();
    const table = await read(latin1, (cells) => cells.includes('Buchungstag') && cells.includes('Betrag (EUR)'));
    expect(table.encoding).toBe('windows-1252');
    expect(table.headerLine).toBe(15);
    expect(table.rows).toEqual([
      { row: 16, cells: { Buchungstag: '03.01.2026', Valuta: '03.01.2026', 'Auftraggeber/Empfänger': 'Bäckerei Öztürk', Verwendungszweck: 'Brötchen', 'Betrag (EUR)': '-4,80' } },
      { row: 17, cells: { Buchungstag: '15.01.2026', Valuta: '15.01.2026', 'Auftraggeber/Empfänger': 'Arbeitgeber GmbH', Verwendungszweck: 'Gehalt Januar', 'Betrag (EUR)': '1172,12' } },
    ]);
    expect(parseBankAmount(table.rows[1]!.cells['Betrag (EUR)']!, 'Betrag')).toBe('1172.12');
  });

  it('refuses a file over a cap while reading it, without reading the rest', async () => {
    await expect(read(`${Array.from({ length: MAX_IMPORT_COLUMNS + 1 }, (_, i) => `c${i}`).join(',')}\n1\n`)).rejects.toThrow(new RegExp(`more than ${MAX_IMPORT_COLUMNS} columns`));
    // A header of a million columns: refused at the row-size cap long before a million cells are made.
    await expect(read(`${'a,'.repeat(1_000_000)}a\n1\n`)).rejects.toThrow(new RegExp(`longer than ${MAX_IMPORT_ROW_CHARS} characters`));
    await expect(read(`a,b\n1,"${'x'.repeat(MAX_IMPORT_ROW_CHARS + 10)}"\n`)).rejects.toThrow(/longer than/);
    // Five million short lines: refused at the row cap; the lines after it are never parsed.
    const many = Buffer.from(`a\n${'1\n'.repeat(5_000_000)}`);
    const csv = await openCsv(many, anyHeader);
    let seen = 0;
    await expect(
      (async () => {
        for await (const _ of csv.rows) seen += 1;
      })(),
    ).rejects.toThrow(new RegExp(`more than ${MAX_IMPORT_ROWS} rows`));
    expect(seen).toBe(MAX_IMPORT_ROWS);
  });

  it('places wall-clock times in a time zone, across daylight saving', () => {
    const at = (date: string, hour: number, zone: string) => zonedInstant({ date, hour, minute: 30, second: 0 }, zone).toISOString();
    expect(at('2026-07-01', 7, 'Europe/Berlin')).toBe('2026-07-01T05:30:00.000Z');
    expect(at('2026-01-15', 7, 'Europe/Berlin')).toBe('2026-01-15T06:30:00.000Z');
    expect(at('2026-03-29', 3, 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
    expect(at('2026-11-02', 7, 'America/New_York')).toBe('2026-11-02T12:30:00.000Z');
    expect(at('2026-11-02', 7, 'UTC')).toBe('2026-11-02T07:30:00.000Z');
  });
});
