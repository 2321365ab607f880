import { findDate, todayOf, type Clock } from './dates.js';
import type { Alternative, Draft, ParsedLine, UnparsedLine } from './draft.js';
import { clean, LINE_CLASSES, type Found, type Groups, type LineClass } from './line-classes.js';
import { DURATION, minutesOf } from './quantities.js';
import { findSchedule } from './schedules.js';
import { byStart, masked, token, uncovered, type Token } from './spans.js';
import { summarize } from './summaries.js';

const MEASURED: ReadonlySet<string> = new Set(['water', 'steps', 'sleep', 'mood', 'weight', 'expense', 'income', 'training', 'reading']);

/** Longest line quick add reads (one line as a person types it; the parse is linear in it). */
export const QUICK_TEXT_MAX = 500;

const CATEGORY = /(?<=^|\s)#([\p{L}\p{N}_][\p{L}\p{N}_-]{0,99})(?=\s|$)/u;
const TIMEBOX = new RegExp(String.raw`(?<=^|\s)~\s?(${DURATION}|\d{1,4})(?=\s|$)`, 'i');

/**
 * The generic parts of a line, each taken out before the next is looked for: `#category`, `~timebox`,
 * a schedule ("every month on the 1st", "3x per week"), then a date or time (chrono). What is left is
 * for the line classes.
 */
function genericParts(text: string, clock: Clock): { found: Omit<Found, 'line'>; tokens: Token[] } {
  const tokens: Token[] = [];
  let line = text;
  let category: string | null = null;
  let timebox: number | null = null;

  const cat = CATEGORY.exec(line);
  if (cat) {
    category = cat[1]!;
    tokens.push(token(text, cat.index, cat.index + cat[0].length, `category "${category}"`, 'category', category));
    line = masked(text, tokens);
  }
  const box = TIMEBOX.exec(line);
  if (box) {
    timebox = minutesOf(box[1]!) ?? Number(box[1]);
    tokens.push(token(text, box.index, box.index + box[0].length, `timebox ${timebox} minutes`, 'timebox', timebox));
    line = masked(text, tokens);
  }
  const schedule = findSchedule(line);
  if (schedule) {
    tokens.push({ ...schedule.token, text: text.slice(schedule.token.start, schedule.token.end) });
    line = masked(text, tokens);
  }
  const date = findDate(line, clock, [...tokens, ...notDates(line)]);
  if (date) tokens.push({ ...date.token, text: text.slice(date.token.start, date.token.end) });
  return { found: { today: todayOf(clock), date, schedule: schedule?.schedule ?? null, category, timebox }, tokens };
}

/**
 * Amounts chrono would read as dates or times: durations with a unit ("20 min" is not "in 20
 * minutes", "6 hours 45 minutes"), a sleep's length written as a clock ("slept 7:45"), a score out of
 * ten ("mood 8/10" is not the 10th of August). "in 2 hours" stays a time.
 */
const NOT_DATES: readonly RegExp[] = [
  /(?<!\bin\s+)\b\d+(?:[.,]\d+)?\s*(?:h|hrs?|hours?)(?:\s*\d{1,2}\s*(?:m|mins?|minutes?)?)?(?![\p{L}\d])/giu,
  /\b\d+\s*(?:m|mins?|minutes?)(?![\p{L}\d])/giu,
  /(?<=\b(?:slept|sleep|sleeping)\s*:?\s*(?:for\s+)?)\d{1,2}:\d{2}(?!\s*-)/giu,
  /(?<=\b(?:mood|feeling|feel|energy|quality|q)\s*:?\s*)\d{1,2}\s*\/\s*10\b/giu,
];

function notDates(line: string): { start: number; end: number }[] {
  return NOT_DATES.flatMap((pattern) => [...line.matchAll(pattern)].map((m) => ({ start: m.index, end: m.index + m[0].length })));
}

/** Whether the class can take every generic part the line holds. */
function takesAll(lineClass: LineClass, found: Omit<Found, 'line'>): boolean {
  const { takes } = lineClass;
  if (found.category !== null && !takes.category) return false;
  if (found.timebox !== null && !takes.timebox) return false;
  if (found.schedule !== null) {
    if (!takes.schedule) return false;
    if (takes.schedule !== 'any' && takes.schedule !== found.schedule.kind) return false;
  }
  return true;
}

interface Candidate {
  lineClass: LineClass;
  draft: Draft;
  tokens: Token[];
  alternatives: Alternative[];
}

/** The tokens of one named group: the pieces of its span between parts taken out before. */
function groupTokens(text: string, taken: readonly Token[], span: readonly [number, number], meaning: string, field: string | undefined, value: unknown): Token[] {
  const pieces: Token[] = [];
  let start = -1;
  let last = -1;
  for (const run of uncovered(text, taken, span[0], span[1])) {
    if (start < 0) start = run.start;
    else if (taken.some((t) => t.start >= last && t.end <= run.start)) {
      pieces.push(token(text, start, last, meaning, field, value));
      start = run.start;
    }
    last = run.end;
  }
  if (start >= 0) pieces.push(token(text, start, last, meaning, field, value));
  return pieces;
}

function tryClass(text: string, lineClass: LineClass, found: Found, generic: readonly Token[]): Candidate | null {
  for (const pattern of lineClass.patterns) {
    const m = pattern.exec(found.line);
    if (!m) continue;
    const groups: Groups = m.groups ?? {};
    if (lineClass.needs && !lineClass.needs(found, groups)) continue;
    const at = (name: string) => m.indices?.groups?.[name] ?? undefined;
    const built = lineClass.build(groups, found, at);
    if (!built) continue;
    const tokens: Token[] = [...generic, ...(built.tokens ?? [])];
    for (const [name, info] of Object.entries(lineClass.meanings)) {
      const span = at(name);
      if (!span || span[0] === span[1]) continue;
      const value = info.field ? (built.fields[info.field] ?? clean(groups[name])) : undefined;
      tokens.push(...groupTokens(text, tokens, span, info.meaning, info.field, value));
    }
    // The pattern is anchored: the words it matched outside any group are its own words ("of", "with").
    for (const run of uncovered(text, tokens)) tokens.push(token(text, run.start, run.end, 'keyword'));
    tokens.sort(byStart);
    const draft: Draft = { kind: built.kind ?? lineClass.kind, fields: built.fields, assumptions: built.assumptions ?? [], ...(built.problems?.length ? { problems: built.problems } : {}) };
    return { lineClass, draft, tokens, alternatives: built.alternatives ?? [] };
  }
  return null;
}

/**
 * One line read against the table of line classes (line-classes.ts) on the person's clock: the record it
 * describes with every token of the line, the other readings, or — when no class fits — what was
 * understood and the words that were not. Pure: no database, no clock of its own.
 */
export function parseLine(input: string, clock: Clock): ParsedLine | UnparsedLine {
  // One line: a pasted line break or tab reads as a space (offsets unchanged).
  const text = input.replace(/[\r\n\t]/g, ' ');
  const { found: parts, tokens: generic } = genericParts(text, clock);
  const found: Found = { ...parts, line: masked(text, generic) };
  const candidates: Candidate[] = [];
  for (const lineClass of LINE_CLASSES) {
    if (!takesAll(lineClass, found)) continue;
    const candidate = tryClass(text, lineClass, found, generic);
    if (candidate) candidates.push(candidate);
  }
  if (!candidates.length) {
    const unknown = uncovered(text, generic).map((run) => token(text, run.start, run.end, 'not understood'));
    return {
      text,
      tokens: [...generic, ...unknown].sort(byStart),
      unknown,
      reason: unknown.length
        ? `Not understood: ${unknown.map((t) => JSON.stringify(t.text)).join(', ')}. A line is one of: ${LINE_CLASSES.map((c) => `"${c.example}"`).join(', ')}`
        : 'The line holds only a date, a category, a timebox or a schedule: say what to add',
    };
  }
  const [first, ...others] = candidates;
  const alternatives: Alternative[] = [...first!.alternatives];
  for (const other of others) {
    // A number-bearing log ("water 500ml tomorrow") is not also offered as a task of that title.
    if (other.draft.kind === 'task' && MEASURED.has(first!.draft.kind)) continue;
    if (other.draft.kind === first!.draft.kind || alternatives.some((a) => a.kind === other.draft.kind)) continue;
    alternatives.push({ kind: other.draft.kind, summary: summarize(other.draft), fields: other.draft.fields });
  }
  return { text, tokens: first!.tokens, draft: first!.draft, alternatives };
}

export function isParsed(result: ParsedLine | UnparsedLine): result is ParsedLine {
  return 'draft' in result;
}
