import * as rrulePackage from 'rrule';
import { describe, expect, it } from 'vitest';
import { addDays } from '../dates.js';
import { ValidationError } from '../errors.js';
import {
  COUNT_HORIZON_PERIODS,
  endBefore,
  lastDate,
  nextOccurrence,
  normalizeRule,
  occurrencesBetween,
  occursOn,
  requireCountWithinHorizon,
  seriesFrom,
  startsOnItsRule,
  type Recurrence,
} from './recurrence.js';

/**
 * The examples of RFC 5545 §3.8.5.3 (Recurrence Rule), on dates. The RFC's DTSTART is 09:00 in New
 * York; a series here is a date, so its dates are the RFC's dates. Where the RFC bounds a rule with
 * `UNTIL=…T000000Z` (midnight UTC, the evening before in New York, after that day's 09:00 occurrence
 * could start), the date form of the same bound is the day before: UNTIL is inclusive, and an
 * occurrence here is that date's midnight.
 */
const d = (text: string) => text.trim().split(/\s+/);

function dates(rule: string, start: string, options: { count?: number; to?: string; exceptions?: string[] } = {}): string[] {
  const recurrence: Recurrence = { rule: normalizeRule(rule), start, exceptions: options.exceptions };
  return occurrencesBetween(recurrence, start, options.to ?? addDays(start, 3650), options.count);
}

describe('RFC 5545 §3.8.5.3 examples', () => {
  it('daily for 10 occurrences', () => {
    expect(dates('FREQ=DAILY;COUNT=10', '1997-09-02')).toEqual(d('1997-09-02 1997-09-03 1997-09-04 1997-09-05 1997-09-06 1997-09-07 1997-09-08 1997-09-09 1997-09-10 1997-09-11'));
  });

  it('daily until December 24, 1997 (113 dates, the last on the 23rd)', () => {
    const all = dates('FREQ=DAILY;UNTIL=19971223', '1997-09-02');
    expect(all).toHaveLength(113);
    expect(all.slice(0, 3)).toEqual(d('1997-09-02 1997-09-03 1997-09-04'));
    expect(all.at(-1)).toBe('1997-12-23');
    // The RFC's own text (UNTIL at midnight UTC) read on dates takes that midnight's date as well.
    expect(dates('RRULE:FREQ=DAILY;UNTIL=19971224T000000Z', '1997-09-02').at(-1)).toBe('1997-12-24');
  });

  it('every other day, forever', () => {
    expect(dates('FREQ=DAILY;INTERVAL=2', '1997-09-02', { count: 6 })).toEqual(d('1997-09-02 1997-09-04 1997-09-06 1997-09-08 1997-09-10 1997-09-12'));
    // Forever: still there 25 years on (9,130 days later, an even number), in step.
    expect(occurrencesBetween({ rule: 'FREQ=DAILY;INTERVAL=2', start: '1997-09-02' }, '2022-08-31', '2022-09-05')).toEqual(d('2022-09-01 2022-09-03 2022-09-05'));
  });

  it('every 10 days, 5 occurrences', () => {
    expect(dates('FREQ=DAILY;INTERVAL=10;COUNT=5', '1997-09-02')).toEqual(d('1997-09-02 1997-09-12 1997-09-22 1997-10-02 1997-10-12'));
  });

  it('every day in January, for 3 years (yearly by month and weekday, and daily by month)', () => {
    const yearly = dates('FREQ=YEARLY;UNTIL=20000131;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA', '1998-01-01');
    const daily = dates('FREQ=DAILY;UNTIL=20000131;BYMONTH=1', '1998-01-01');
    expect(yearly).toHaveLength(93);
    expect(daily).toEqual(yearly);
    expect(yearly.filter((x) => x.startsWith('1999-'))).toEqual(Array.from({ length: 31 }, (_, i) => addDays('1999-01-01', i)));
  });

  it('weekly for 10 occurrences', () => {
    expect(dates('FREQ=WEEKLY;COUNT=10', '1997-09-02')).toEqual(d('1997-09-02 1997-09-09 1997-09-16 1997-09-23 1997-09-30 1997-10-07 1997-10-14 1997-10-21 1997-10-28 1997-11-04'));
  });

  it('weekly on Tuesday and Thursday for five weeks (UNTIL and COUNT forms)', () => {
    const expected = d('1997-09-02 1997-09-04 1997-09-09 1997-09-11 1997-09-16 1997-09-18 1997-09-23 1997-09-25 1997-09-30 1997-10-02');
    expect(dates('FREQ=WEEKLY;UNTIL=19971006;WKST=SU;BYDAY=TU,TH', '1997-09-02')).toEqual(expected);
    expect(dates('FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH', '1997-09-02')).toEqual(expected);
  });

  it('every other week on Monday, Wednesday and Friday until December 24, 1997, from Monday September 1', () => {
    expect(dates('FREQ=WEEKLY;INTERVAL=2;UNTIL=19971223;WKST=SU;BYDAY=MO,WE,FR', '1997-09-01')).toEqual(
      d(`1997-09-01 1997-09-03 1997-09-05 1997-09-15 1997-09-17 1997-09-19 1997-09-29 1997-10-01 1997-10-03 1997-10-13 1997-10-15
         1997-10-17 1997-10-27 1997-10-29 1997-10-31 1997-11-10 1997-11-12 1997-11-14 1997-11-24 1997-11-26 1997-11-28 1997-12-08
         1997-12-10 1997-12-12 1997-12-22`),
    );
  });

  it('every other week on Tuesday and Thursday, for 8 occurrences', () => {
    expect(dates('FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH', '1997-09-02')).toEqual(d('1997-09-02 1997-09-04 1997-09-16 1997-09-18 1997-09-30 1997-10-02 1997-10-14 1997-10-16'));
  });

  it('monthly on the first Friday for 10 occurrences', () => {
    expect(dates('FREQ=MONTHLY;COUNT=10;BYDAY=1FR', '1997-09-05')).toEqual(d('1997-09-05 1997-10-03 1997-11-07 1997-12-05 1998-01-02 1998-02-06 1998-03-06 1998-04-03 1998-05-01 1998-06-05'));
  });

  it('every other month on the first and last Sunday of the month for 10 occurrences', () => {
    expect(dates('FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU', '1997-09-07')).toEqual(
      d('1997-09-07 1997-09-28 1997-11-02 1997-11-30 1998-01-04 1998-01-25 1998-03-01 1998-03-29 1998-05-03 1998-05-31'),
    );
  });

  it('monthly on the second-to-last Monday of the month for 6 months', () => {
    expect(dates('FREQ=MONTHLY;COUNT=6;BYDAY=-2MO', '1997-09-22')).toEqual(d('1997-09-22 1997-10-20 1997-11-17 1997-12-22 1998-01-19 1998-02-16'));
  });

  it('monthly on the third-to-the-last day of the month, forever', () => {
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=-3', '1997-09-28', { count: 6 })).toEqual(d('1997-09-28 1997-10-29 1997-11-28 1997-12-29 1998-01-29 1998-02-26'));
  });

  it('monthly on the 2nd and 15th of the month for 10 occurrences', () => {
    expect(dates('FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15', '1997-09-02')).toEqual(
      d('1997-09-02 1997-09-15 1997-10-02 1997-10-15 1997-11-02 1997-11-15 1997-12-02 1997-12-15 1998-01-02 1998-01-15'),
    );
  });

  it('yearly in June and July for 10 occurrences', () => {
    expect(dates('FREQ=YEARLY;COUNT=10;BYMONTH=6,7', '1997-06-10')).toEqual(
      d('1997-06-10 1997-07-10 1998-06-10 1998-07-10 1999-06-10 1999-07-10 2000-06-10 2000-07-10 2001-06-10 2001-07-10'),
    );
  });

  it('every 3rd year on the 1st, 100th and 200th day for 10 occurrences', () => {
    expect(dates('FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200', '1997-01-01', { to: '2010-01-01' })).toEqual(
      d('1997-01-01 1997-04-10 1997-07-19 2000-01-01 2000-04-09 2000-07-18 2003-01-01 2003-04-10 2003-07-19 2006-01-01'),
    );
  });

  it('Monday of week number 20, forever', () => {
    expect(dates('FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO', '1997-05-12', { count: 3 })).toEqual(d('1997-05-12 1998-05-11 1999-05-17'));
  });

  it('every Friday the 13th, forever, with DTSTART left out by EXDATE', () => {
    expect(dates('FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13', '1997-09-02', { count: 5, exceptions: ['1997-09-02'] })).toEqual(d('1998-02-13 1998-03-13 1998-11-13 1999-08-13 2000-10-13'));
  });

  it('the first Saturday that follows the first Sunday of the month, forever', () => {
    expect(dates('FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13', '1997-09-13', { count: 10 })).toEqual(
      d('1997-09-13 1997-10-11 1997-11-08 1997-12-13 1998-01-10 1998-02-07 1998-03-07 1998-04-11 1998-05-09 1998-06-13'),
    );
  });

  it('every 4 years, the first Tuesday after a Monday in November (U.S. Presidential Election day)', () => {
    expect(dates('FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8', '1996-11-05', { count: 3 })).toEqual(d('1996-11-05 2000-11-07 2004-11-02'));
  });

  it('the third instance into the month of one of Tuesday, Wednesday or Thursday, for the next 3 months', () => {
    expect(dates('FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3', '1997-09-04')).toEqual(d('1997-09-04 1997-10-07 1997-11-06'));
  });

  it('the second-to-last weekday of the month', () => {
    expect(dates('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2', '1997-09-29', { count: 7 })).toEqual(d('1997-09-29 1997-10-30 1997-11-27 1997-12-30 1998-01-29 1998-02-26 1998-03-30'));
  });

  it('WKST changes the dates of an every-other-week rule', () => {
    expect(dates('FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO', '1997-08-05')).toEqual(d('1997-08-05 1997-08-10 1997-08-19 1997-08-24'));
    expect(dates('FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU', '1997-08-05')).toEqual(d('1997-08-05 1997-08-17 1997-08-19 1997-08-31'));
  });

  it('an invalid date (February 30) is ignored', () => {
    expect(dates('FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5', '2007-01-15')).toEqual(d('2007-01-15 2007-01-30 2007-02-15 2007-03-15 2007-03-30'));
  });

  it('a sub-daily rule stored before they were refused is read as daily, to its UNTIL or stored end', () => {
    expect(occurrencesBetween({ rule: 'FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z', start: '1997-09-02' }, '1997-09-01', '1998-01-01')).toEqual(['1997-09-02']);
    // Every 15 minutes, 200 times, ended on 4 September (the end stored when it was written).
    const legacy = { rule: 'FREQ=MINUTELY;INTERVAL=15;COUNT=200', start: '1997-09-02', end: '1997-09-04' };
    expect(occurrencesBetween(legacy, '1997-09-01', '1998-01-01')).toEqual(d('1997-09-02 1997-09-03 1997-09-04'));
  });
});

describe('normalizeRule', () => {
  function refusal(text: string): ValidationError {
    try {
      normalizeRule(text, 'recurrence');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return error as ValidationError;
    }
    throw new Error(`${text} was accepted`);
  }

  it('refuses a sub-daily rule, ending or not, naming the field (series keep dates only)', () => {
    for (const rule of ['FREQ=HOURLY', 'FREQ=MINUTELY;INTERVAL=30', 'FREQ=SECONDLY', 'FREQ=HOURLY;COUNT=5', 'FREQ=SECONDLY;COUNT=1000;BYMONTH=2;BYMONTHDAY=29;BYHOUR=0;BYMINUTE=0;BYSECOND=0']) {
      const error = refusal(rule);
      expect(error.details).toMatchObject({ errors: [{ path: ['recurrence'] }] });
      expect(error.message).toMatch(/must repeat daily or less often/);
    }
  });

  it('refuses text that is not one RRULE', () => {
    for (const rule of ['', 'FREQ=FORTNIGHTLY', 'DTSTART:19970902T090000Z\nRRULE:FREQ=DAILY', 'FREQ=DAILY;COUNT=0', 'FREQ=DAILY;COUNT=1001', 'FREQ=DAILY;INTERVAL=0', 'BYDAY=MO', `FREQ=DAILY;${'X'.repeat(600)}`]) {
      expect(refusal(rule).code).toBe('VALIDATION_ERROR');
    }
  });

  it('stores the rule without its RRULE: prefix', () => {
    expect(normalizeRule(' RRULE:FREQ=WEEKLY;BYDAY=TU,TH;INTERVAL=2 ')).toBe('FREQ=WEEKLY;BYDAY=TU,TH;INTERVAL=2');
  });
});

describe('series helpers', () => {
  it('nextOccurrence, occursOn and endBefore', () => {
    const weekly: Recurrence = { rule: 'FREQ=WEEKLY;BYDAY=TU,TH', start: '2026-11-17', exceptions: ['2026-11-24'] };
    expect(nextOccurrence(weekly, '2026-11-17')).toBe('2026-11-19');
    expect(nextOccurrence(weekly, '2026-11-19')).toBe('2026-11-26');
    expect(occursOn(weekly, '2026-11-24')).toBe(false);
    expect(occursOn(weekly, '2026-11-26')).toBe(true);
    const ended = endBefore(weekly, '2026-12-01')!;
    expect(occurrencesBetween({ ...weekly, rule: ended }, '2026-11-01', '2027-01-01')).toEqual(d('2026-11-17 2026-11-19 2026-11-26'));
    expect(endBefore(weekly, '2026-11-17')).toBeNull();
    expect(nextOccurrence({ rule: 'FREQ=DAILY;COUNT=2', start: '2026-11-17' }, '2026-11-18')).toBeNull();
  });

  it('lastDate: UNTIL\'s date, the date COUNT ends on, or null when it never ends', () => {
    expect(lastDate({ rule: 'FREQ=WEEKLY;UNTIL=20261224T000000Z', start: '2026-11-17' })).toBe('2026-12-24');
    expect(lastDate({ rule: 'FREQ=MONTHLY;COUNT=10;BYDAY=1FR', start: '1997-09-05' })).toBe('1998-06-05');
    expect(lastDate({ rule: 'FREQ=DAILY', start: '2026-11-17' })).toBeNull();
    // Fifty years of a yearly rule: within its horizon (COUNT_HORIZON_PERIODS years).
    expect(lastDate({ rule: 'FREQ=YEARLY;COUNT=50', start: '2026-11-17' })).toBe('2075-11-17');
    // Stored before the horizon and not reaching its COUNT within it (1,000 leap days): read as ending there.
    expect(lastDate({ rule: 'FREQ=DAILY;COUNT=1000;BYMONTH=2;BYMONTHDAY=29', start: '2028-02-29' })).toBe(addDays('2028-02-29', COUNT_HORIZON_PERIODS));
  });

  it('startsOnItsRule: the first date must be a date of the rule', () => {
    expect(startsOnItsRule({ rule: 'FREQ=WEEKLY;BYDAY=TU,TH', start: '2026-11-17' })).toBe(true);
    expect(startsOnItsRule({ rule: 'FREQ=WEEKLY;BYDAY=TU,TH', start: '2026-11-16' })).toBe(false);
    expect(startsOnItsRule({ rule: 'FREQ=MONTHLY;BYDAY=1FR', start: '1997-09-05' })).toBe(true);
    // An exception on the first date does not make it out of step.
    expect(startsOnItsRule({ rule: 'FREQ=DAILY', start: '2026-11-17', exceptions: ['2026-11-17'] })).toBe(true);
  });
});

/** rrule itself, walking from DTSTART: the reference the anchored reads are compared with. */
const { rrulestr } = ((rrulePackage as { default?: unknown }).default ?? rrulePackage) as typeof import('rrule');
function walked(recurrence: Recurrence, from: string, to: string): string[] {
  const rule = rrulestr(`DTSTART:${recurrence.start.replace(/-/g, '')}T000000Z\nRRULE:${recurrence.rule}`);
  return rule.between(new Date(`${from}T00:00:00Z`), new Date(`${to}T23:59:59Z`), true).map((instant) => instant.toISOString().slice(0, 10));
}

describe('reading a range far from the start', () => {
  const rules = [
    'FREQ=DAILY',
    'FREQ=DAILY;INTERVAL=3',
    'FREQ=DAILY;INTERVAL=7;BYDAY=MO,TU',
    'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29',
    'FREQ=WEEKLY',
    'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;WKST=SU',
    'FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,SU;WKST=MO',
    'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU',
    'FREQ=MONTHLY',
    'FREQ=MONTHLY;INTERVAL=5',
    'FREQ=MONTHLY;BYDAY=-2MO',
    'FREQ=MONTHLY;INTERVAL=2;BYDAY=1SU,-1SU',
    'FREQ=MONTHLY;BYMONTHDAY=-3',
    'FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13',
    'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2',
    'FREQ=MONTHLY;BYMONTH=6,7',
    'FREQ=YEARLY',
    'FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8',
    'FREQ=YEARLY;BYMONTH=6,7',
    'FREQ=YEARLY;INTERVAL=3;BYYEARDAY=1,100,200',
    'FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO',
    'FREQ=YEARLY;INTERVAL=2;BYMONTH=1;BYDAY=SU',
    'FREQ=WEEKLY;INTERVAL=2;UNTIL=20240301',
  ];
  const starts = ['2016-02-29', '2018-07-31', '2019-12-30'];
  const windows = [
    ['2024-02-25', '2024-03-10'],
    ['2025-12-20', '2026-01-20'],
    ['2027-11-01', '2027-11-30'],
  ];

  it('gives the dates a walk from the start gives (the start moved forward by whole periods)', () => {
    let compared = 0;
    for (const rule of rules) {
      for (const start of starts) {
        const recurrence = { rule: normalizeRule(rule), start };
        for (const [from, to] of windows) {
          const expected = walked(recurrence, from!, to!);
          expect(occurrencesBetween(recurrence, from!, to!), `${rule} from ${start}, ${from}..${to}`).toEqual(expected);
          compared += expected.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('costs little for a daily rule begun ten years before', () => {
    const recurrence = { rule: 'FREQ=DAILY', start: '2016-01-01' };
    occurrencesBetween(recurrence, '2026-11-23', '2026-11-29');
    const began = performance.now();
    for (let i = 0; i < 20; i++) expect(occurrencesBetween(recurrence, '2026-11-23', '2026-11-29')).toHaveLength(7);
    expect((performance.now() - began) / 20).toBeLessThan(3);
  });
});

/** Dates rrule produced while `run` ran (every date of a walk from DTSTART counts, in the range or not). */
function producedDates(run: () => void): number {
  const prototype = (((rrulePackage as { default?: unknown }).default ?? rrulePackage) as typeof import('rrule')).RRule.prototype as unknown as {
    _iter: (result: { accept: (date: Date) => boolean }) => unknown;
  };
  const original = prototype._iter;
  let produced = 0;
  prototype._iter = function (this: unknown, result) {
    const accept = result.accept.bind(result);
    result.accept = (date) => (produced++, accept(date));
    return original.call(this, result);
  };
  try {
    run();
  } finally {
    prototype._iter = original;
  }
  return produced;
}

describe('the horizon (issue 34): no expansion walks from the start of a COUNT series', () => {
  const series = (rule: string, start: string): Recurrence => ({ rule, start, end: lastDate({ rule, start }) });

  it('a range after a COUNT series ends is answered without walking it; one inside walks only near the range', () => {
    const daily = series('FREQ=DAILY;COUNT=1000', '2026-01-01');
    const weekly = series('FREQ=WEEKLY;BYDAY=MO,TH;COUNT=1000', '2026-01-01');
    expect([daily.end, weekly.end]).toEqual(['2028-09-26', '2035-07-30']);
    for (const one of [daily, weekly]) {
      expect(producedDates(() => expect(occurrencesBetween(one, '2999-01-01', '2999-12-31')).toEqual([]))).toBe(0);
    }
    let dates: string[] = [];
    const walked = producedDates(() => (dates = occurrencesBetween(weekly, '2034-03-06', '2034-03-19')));
    expect(dates).toEqual(d('2034-03-06 2034-03-09 2034-03-13 2034-03-16'));
    expect(walked).toBeLessThan(10); // from the start it is ~860
    // The same dates a walk from the start gives.
    expect(dates).toEqual(walkedFromStart(weekly, '2034-03-06', '2034-03-19'));
  });

  it('refuses a COUNT whose last date lies beyond COUNT_HORIZON_PERIODS periods; a sparse one stored before ends there', () => {
    expect(() => requireCountWithinHorizon({ rule: 'FREQ=DAILY;COUNT=1000;BYMONTH=2;BYMONTHDAY=29', start: '2028-02-29' })).toThrow(/COUNT=1000 is not reached/);
    expect(() => requireCountWithinHorizon({ rule: 'FREQ=YEARLY;COUNT=500;BYMONTH=2;BYMONTHDAY=29', start: '2028-02-29' })).not.toThrow();
    expect(() => requireCountWithinHorizon({ rule: 'FREQ=DAILY;COUNT=400;BYDAY=MO', start: '2026-11-16' })).not.toThrow();
    // Stored before: read as ending at its horizon, so a far range costs nothing.
    const legacy = { rule: 'FREQ=DAILY;COUNT=1000;BYMONTH=2;BYMONTHDAY=29', start: '2028-02-29', end: lastDate({ rule: 'FREQ=DAILY;COUNT=1000;BYMONTH=2;BYMONTHDAY=29', start: '2028-02-29' }) };
    expect(producedDates(() => expect(occurrencesBetween(legacy, '2996-01-01', '2996-12-31')).toEqual([]))).toBe(0);
  });

  it('seriesFrom writes a COUNT series from a later date as UNTIL its last date: the same dates, nothing counted', () => {
    const course = series('FREQ=WEEKLY;BYDAY=TU;COUNT=30', '2030-01-01');
    let restarted: Recurrence = course;
    expect(producedDates(() => (restarted = seriesFrom(course, '2030-05-07')))).toBe(0);
    expect(restarted).toMatchObject({ rule: 'FREQ=WEEKLY;BYDAY=TU;UNTIL=20300723T235959Z', start: '2030-05-07', end: '2030-07-23' });
    expect(occurrencesBetween(restarted, '2030-01-01', '2031-01-01')).toEqual(occurrencesBetween(course, '2030-05-07', '2031-01-01'));
  });
});

function walkedFromStart(recurrence: Recurrence, from: string, to: string): string[] {
  return walked({ rule: recurrence.rule, start: recurrence.start }, from, to);
}
