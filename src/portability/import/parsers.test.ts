import { describe, expect, it } from 'vitest';
import type { Exercise } from '../../training/exercise.entity.js';
import { delimiterOf, readCsv, RowRefusal, zonedInstant } from './csv.js';
import { ExerciseMatcher } from './import.service.js';
import { parseDuration, parseWorkoutTime } from './strong.parser.js';
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
  it('finds the delimiter from the header and numbers rows by their line', () => {
    expect(delimiterOf('a;b;c\n1;2;3')).toBe(';');
    expect(delimiterOf('a\tb\n')).toBe('\t');
    expect(delimiterOf('a,b;c,d\n')).toBe(',');
    const table = readCsv('\uFEFFa;b\n1;2\n\n"x\ny";3\n');
    expect(table.header).toEqual(['a', 'b']);
    expect(table.rows).toEqual([
      { row: 2, cells: { a: '1', b: '2' } },
      { row: 5, cells: { a: 'x\ny', b: '3' } },
    ]);
    expect(() => readCsv('')).toThrow(/header/);
    expect(() => readCsv('a,"b\n1,2')).toThrow(/not readable CSV/);
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
