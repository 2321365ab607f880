import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { isParsed, parseLine } from '../parse-line.js';
import { loadDateReader, type Clock } from '../dates.js';

/**
 * The corpus (corpus.json): lines written as people log them, each with the record it must give (kind
 * and fields, names not yet matched) or, for a line that must not be guessed, `kind: null` and the
 * words not understood. Read on a fixed clock: Saturday 2026-11-28 17:30 in Berlin.
 */
interface CorpusLine {
  line: string;
  kind: string | null;
  fields?: Record<string, unknown>;
  unknown?: string[];
}
const corpus = JSON.parse(readFileSync(new URL('./corpus.json', import.meta.url), 'utf8')) as { clock: { now: string; timezone: string; locale: Clock['locale'] }; lines: CorpusLine[] };
const clock: Clock = { now: new Date(corpus.clock.now), timezone: corpus.clock.timezone, locale: corpus.clock.locale };

describe('the quick add corpus', () => {
  beforeAll(loadDateReader);

  it('holds at least 200 lines of every kind', () => {
    expect(corpus.lines.length).toBeGreaterThanOrEqual(200);
    const kinds = new Set(corpus.lines.map((l) => l.kind));
    for (const kind of ['task', 'recurring_task', 'habit', 'habit_entry', 'water', 'steps', 'sleep', 'mood', 'weight', 'expense', 'income', 'training', 'reading', 'social', null]) expect(kinds).toContain(kind);
  });

  it.each(corpus.lines.map((l) => [l.line, l] as const))('%s', (_line, expected) => {
    const result = parseLine(expected.line, clock);
    if (expected.kind === null) {
      expect(isParsed(result), JSON.stringify(result)).toBe(false);
      if (!isParsed(result)) expect(result.unknown.map((t) => t.text)).toEqual(expected.unknown);
    } else {
      expect(isParsed(result), JSON.stringify(result)).toBe(true);
      if (isParsed(result)) expect({ kind: result.draft.kind, fields: result.draft.fields }).toEqual({ kind: expected.kind, fields: expected.fields });
    }
    // Token by token: every non-space character in exactly one token, in order, each its own slice of the line.
    const covered = new Array<number>(expected.line.length).fill(0);
    let last = -1;
    for (const t of result.tokens) {
      expect(t.text).toBe(expected.line.slice(t.start, t.end));
      expect(t.start).toBeGreaterThanOrEqual(last);
      last = t.end;
      for (let i = t.start; i < t.end; i++) covered[i]!++;
    }
    for (let i = 0; i < expected.line.length; i++) expect(/\s/.test(expected.line[i]!) ? covered[i]! <= 1 : covered[i], `character ${i} of "${expected.line}"`).toBe(/\s/.test(expected.line[i]!) ? true : 1);
  });
});

describe('the parser', () => {
  it('reads dates in the person\'s time zone: 23:30 in Berlin on Saturday is already Sunday in Tokyo', () => {
    const at = new Date('2026-11-28T22:30:00Z');
    const berlin = parseLine('call mom tomorrow', { now: at, timezone: 'Europe/Berlin', locale: 'en' });
    const tokyo = parseLine('call mom tomorrow', { now: at, timezone: 'Asia/Tokyo', locale: 'en' });
    expect(isParsed(berlin) && berlin.draft.fields.date).toBe('2026-11-29');
    expect(isParsed(tokyo) && tokyo.draft.fields.date).toBe('2026-11-30');
  });

  it('reads day before month in en-GB and month before day in en', () => {
    const en = parseLine('dentist 3/12 ~30m', { ...clock, locale: 'en' });
    const gb = parseLine('dentist 3/12 ~30m', { ...clock, locale: 'en-GB' });
    expect(isParsed(en) && en.draft.fields.date).toBe('2027-03-12');
    expect(isParsed(gb) && gb.draft.fields.date).toBe('2026-12-03');
  });

  it('offers the other reading when a line is ambiguous', () => {
    const lunch = parseLine('lunch with Anna friday', clock);
    expect(isParsed(lunch) && lunch.alternatives.map((a) => [a.kind, a.fields.date])).toContainEqual(['social', '2026-11-27']);
    const floss = parseLine('floss every day', clock);
    expect(isParsed(floss) && [floss.draft.kind, floss.alternatives.map((a) => a.kind)]).toEqual(['habit', ['recurring_task']]);
  });

  it('lists every default it filled in', () => {
    const read = parseLine('read 30 pages of Dune', clock);
    expect(isParsed(read) && read.draft.assumptions).toEqual(['no duration: 60 minutes (2 minutes a page)']);
  });

  it('flags values out of their bounds instead of writing them', () => {
    const mood = parseLine('mood 11', clock);
    expect(isParsed(mood) && mood.draft.problems).toEqual([{ field: 'mood', message: 'mood must be 1 to 10' }]);
  });
});
