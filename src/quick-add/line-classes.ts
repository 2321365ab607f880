import { isCurrency } from '../finance/currency.js';
import type { Alternative, QuickKind } from './draft.js';
import { countOf, DURATION, kilograms, millilitres, minutesOf, NUMBER, numberOf, VOLUME_UNIT, WEIGHT_UNIT } from './quantities.js';
import type { Schedule } from './schedules.js';
import type { SaidDate } from './dates.js';
import { token, type Token } from './spans.js';

/**
 * The grammar of quick add: one table of line classes, tried in order on the line with its generic
 * parts (date and time, `#category`, `~timebox`, a schedule) already taken out. Each class has anchored
 * patterns whose named groups are the line's tokens (`meanings`), says which generic parts it takes,
 * and builds the record's fields from the groups. A class that cannot use what the line holds answers
 * null and the next one is tried; every class that fits is kept, the first as the answer and the others
 * as alternatives.
 */

/** What the generic passes found, handed to a class's builder. */
export interface Found {
  /** Today in the person's zone. */
  today: string;
  date: SaidDate | null;
  schedule: Schedule | null;
  category: string | null;
  timebox: number | null;
  /** The masked line the patterns ran on, with offsets of the original. */
  line: string;
}

export interface Built {
  /** The kind when the class makes more than one (a habit or a recurring task). */
  kind?: QuickKind;
  fields: Record<string, unknown>;
  /** Other readings of the same line. */
  alternatives?: Alternative[];
  assumptions?: string[];
  /** Tokens the builder made itself (a list inside one group: the exercises of a session). */
  tokens?: Token[];
  /** Values out of their bounds: the line was understood, the record would be refused (400). */
  problems?: { field: string; message: string }[];
}

export interface LineClass {
  name: string;
  kind: QuickKind;
  /** An example line (the docs and the 422 answer list them). */
  example: string;
  patterns: readonly RegExp[];
  /** Meaning and field of each named group. Groups a builder tokenizes itself are left out. */
  meanings: Readonly<Record<string, { meaning: string; field?: string }>>;
  /** The generic parts this class can take; a line holding another one is not of this class. */
  takes: { date?: boolean; category?: boolean; timebox?: boolean; schedule?: 'rule' | 'quota' | 'any' };
  /** The generic parts this class needs (a task needs a date, a timebox, a category or a `todo:`). */
  needs?: (found: Found, groups: Groups) => boolean;
  build(groups: Groups, found: Found, at: GroupSpan): Built | null;
}

/** Where a named group lies in the line (offsets), if it matched. */
export type GroupSpan = (group: string) => readonly [number, number] | undefined;

/** A group's text with the blanks of taken-out parts and runs of spaces made one space. */
export const clean = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

export type Groups = Readonly<Record<string, string | undefined>>;

// ---------------------------------------------------------------- shared pieces

const NUM = NUMBER;
const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', 'zł': 'PLN', 'r$': 'BRL', 'fr': 'CHF', 'kr': 'SEK' };
const CURRENCY_WORDS: Readonly<Record<string, string>> = {
  euro: 'EUR', euros: 'EUR', dollar: 'USD', dollars: 'USD', bucks: 'USD', buck: 'USD', quid: 'GBP', pound: 'GBP', pounds: 'GBP',
  franc: 'CHF', francs: 'CHF', yen: 'JPY', rupees: 'INR', rupee: 'INR',
};
// Written as \u escapes (the RegExp reads them): a character beyond Latin-1 in the code makes V8 keep the
// whole built chunk as two-byte text (scripts/build.ts).
const CURRENCY = String.raw`(?:\u20AC|\$|£|¥|\u20B9|\u20A9|\u20BD|\u20BA|z\u0142|r\$|[a-z]{3}\b|euros?|dollars?|bucks?|quid|pounds?|francs?|yen|rupees?)`;
const SYMBOL = String.raw`(?:\u20AC|\$|£|¥|\u20B9|\u20A9|\u20BD|\u20BA)`;
const ACCOUNT = String.raw`(?:\s+(?:from|on|via|with|using|to|into|in|@)\s+(?:my\s+|the\s+)?(?<account>[\p{L}\p{N}][\p{L}\p{N}' -]{0,60}?)(?:\s+(?:account|card|acct))?)?`;
const INCOME_WORDS = /\b(salary|income|paycheck|pay\s*check|wage|wages|refund|refunded|reimbursement|reimbursed|received|earned|got\s+paid|bonus|dividends?|interest|sold|invoice\s+paid|cashback|gift\s+received|allowance|tips?\s+earned)\b/i;
const MONEY_VERBS = /\b(spent|spend|paid|pay|bought|buy|cost|costs|costed|purchase|purchased)\b/i;

/** A currency as typed (`€`, `eur`, `euros`) as its ISO 4217 code, or null when it is not one. */
export function currencyOf(raw: string | undefined): string | null {
  if (!raw) return null;
  const text = raw.trim().toLowerCase();
  const code = CURRENCY_SYMBOLS[text] ?? CURRENCY_WORDS[text] ?? text.toUpperCase();
  return isCurrency(code) ? code : null;
}

const PERSON = String.raw`[\p{Lu}][\p{L}'.-]*(?:\s+[\p{Lu}][\p{L}'.-]*)?`;
const PEOPLE = String.raw`${PERSON}(?:\s*(?:,|\band\b|&|\+)\s*${PERSON})*`;
const names = (list: string) => list.split(/\s*(?:,|\band\b|&|\+)\s*/).map((n) => n.trim()).filter(Boolean);

const oneOf = (words: readonly string[]) => `(?:${words.join('|')})`;
const inBounds = (value: number, min: number, max: number) => Number.isFinite(value) && value >= min && value <= max;
const problem = (field: string, message: string) => ({ field, message });
/** The date a log goes on: the said one, or today. A bare weekday ("friday") is the last one, not the coming one. */
function logDate(found: Found): string {
  if (!found.date) return found.today;
  if (found.date.date <= found.today) return found.date.date;
  if (found.date.weekdayOnly) return addDaysText(found.date.date, -7);
  return found.date.pastDate <= found.today ? found.date.pastDate : found.date.date;
}
function addDaysText(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
/** Minutes from one HH:MM to the next (past midnight when the second is earlier). */
function minutesBetween(from: string, to: string): number {
  const m = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  return (((m(to) - m(from)) % 1440) + 1440) % 1440 || 1440;
}
const logTime = (found: Found) => (found.date?.time ? { time: found.date.time } : {});

/** Self-care and practice words: a line with one of these and a schedule (and no task marker) is a habit rather than a recurring task. */
const HABIT_WORDS = /\b(floss|flossing|meditat\w*|journal\w*|stretch\w*|run|running|jog\w*|walk|walking|exercise|work\s*out|workout|yoga|pilates|gym|lift\w*|read|reading|study|studying|practi[cs]e\w*|pray\w*|skincare|vitamins?|supplements?|no\s+\w+|drink\s+water|water|cold\s+shower|push-?ups?|sit-?ups?|plank\w*|sleep\s+by|bed\s+by|wake\s+up|duolingo|piano|guitar|draw\w*|write|writing|gratitude|swim\w*|cycl\w*|bike|steps|brush\w*|teeth|make\s+(?:the\s+)?bed|tidy|declutter|language|spanish|french|german)\b/i;

// ---------------------------------------------------------------- the table

export const LINE_CLASSES: readonly LineClass[] = [
  {
    name: 'water',
    kind: 'water',
    example: 'water 500ml',
    patterns: [
      new RegExp(String.raw`^\s*(?<keyword>water|h2o)\s*:?\s+(?<amount>${NUM}|an?|one|two|three|four)\s*(?<unit>${VOLUME_UNIT})?\s*(?:of\s+water)?\s*$`, 'iud'),
      new RegExp(String.raw`^\s*(?:(?<verb>drank|drink|had|drinking)\s+)?(?<amount>${NUM}|an?|one|two|three|four)\s*(?<unit>${VOLUME_UNIT})\s+(?:of\s+)?(?<keyword>water|h2o)\s*$`, 'iud'),
    ],
    meanings: { keyword: { meaning: 'water' }, verb: { meaning: 'keyword' }, amount: { meaning: 'amount', field: 'volume' }, unit: { meaning: 'unit of volume' } },
    takes: { date: true },
    build(g, found) {
      const amount = /^an?|one$/i.test(g.amount!) ? 1 : countOf(g.amount!) || numberOf(g.amount!);
      const assumptions: string[] = [];
      let unit = g.unit;
      if (!unit) {
        // "water 500" is millilitres; "water 2" could be litres or glasses: not guessed.
        if (amount < 50) return null;
        unit = 'ml';
        assumptions.push('no unit: millilitres');
      }
      const { ml, assumed } = millilitres(amount, unit);
      if (assumed) assumptions.push(assumed);
      const problems = inBounds(ml, 1, 20_000) ? [] : [problem('volume', 'volume must be 1 to 20000 ml')];
      return { fields: { date: logDate(found), volume: ml, ...logTime(found) }, assumptions, problems };
    },
  },
  {
    name: 'steps',
    kind: 'steps',
    example: 'steps 8400',
    patterns: [
      new RegExp(String.raw`^\s*(?:(?<keyword>steps|walked)\s*:?\s+)(?<steps>\d[\d,.']*k?)(?:\s+(?<unit>steps))?\s*$`, 'iud'),
      new RegExp(String.raw`^\s*(?:(?<verb>walked|did|hit|made)\s+)?(?<steps>\d[\d,.']*k?)\s+(?<unit>steps)(?:\s+(?<walked>walked))?\s*$`, 'iud'),
    ],
    meanings: { keyword: { meaning: 'keyword' }, verb: { meaning: 'keyword' }, walked: { meaning: 'keyword' }, steps: { meaning: 'step count', field: 'steps' }, unit: { meaning: 'unit: steps' } },
    takes: { date: true },
    build(g, found) {
      const steps = Math.round(numberOf(g.steps!));
      if (!Number.isFinite(steps)) return null;
      const problems = inBounds(steps, 0, 1_000_000) ? [] : [problem('steps', 'steps must be 0 to 1000000')];
      return { fields: { date: logDate(found), steps }, problems };
    },
  },
  {
    name: 'sleep',
    kind: 'sleep',
    example: 'slept 7h20',
    patterns: [
      new RegExp(
        String.raw`^\s*(?<keyword>slept|sleep|sleeping)\s*:?\s*(?:for\s+)?(?:(?<duration>${DURATION})|(?<hours>${NUM})\s*(?:h|hrs?|hours?)?)?(?:\s+(?<night>last\s+night))?(?:\s*,?\s*(?:(?<qualityWord>quality|q)\s*:?\s*(?<quality>\d{1,2})(?:\s*/\s*10)?))?\s*$`,
        'iud',
      ),
      new RegExp(String.raw`^\s*(?<duration>${DURATION})\s+(?:of\s+)?(?<keyword>sleep)(?:\s+(?<night>last\s+night))?\s*$`, 'iud'),
    ],
    meanings: {
      keyword: { meaning: 'sleep' },
      duration: { meaning: 'duration', field: 'duration' },
      hours: { meaning: 'duration in hours', field: 'duration' },
      night: { meaning: 'the night before today' },
      qualityWord: { meaning: 'keyword' },
      quality: { meaning: 'sleep quality (1-10)', field: 'quality' },
    },
    takes: { date: true },
    build(g, found) {
      let minutes = g.duration ? minutesOf(g.duration) : g.hours ? Math.round(numberOf(g.hours) * 60) : null;
      const fields: Record<string, unknown> = {};
      // "slept 23:30-7:00": the range says bedtime, wake time and the duration.
      if (minutes === null && found.date?.time && found.date.endTime) {
        const [bh, bm] = found.date.time.split(':').map(Number) as [number, number];
        const [wh, wm] = found.date.endTime.split(':').map(Number) as [number, number];
        minutes = ((wh * 60 + wm - (bh * 60 + bm)) % 1440 + 1440) % 1440;
        fields.bedtime = found.date.time;
        fields.wakeTime = found.date.endTime;
      }
      if (minutes === null) return null;
      // A night is logged on the day one wakes up: "last night" and a lone time range are today's.
      const lastNight = found.date !== null && /night/i.test(found.date.token.text);
      const date = found.date && !found.date.time && !lastNight ? logDate(found) : found.today;
      const hours = Math.round((minutes / 60) * 100) / 100;
      const quality = g.quality ? Number(g.quality) : undefined;
      const problems = [
        ...(inBounds(hours, 0.01, 24) ? [] : [problem('duration', 'duration must be above 0 and at most 24 hours')]),
        ...(quality === undefined || inBounds(quality, 1, 10) ? [] : [problem('quality', 'quality must be 1 to 10')]),
      ];
      return { fields: { date, duration: hours, ...fields, ...(quality !== undefined ? { quality } : {}) }, problems };
    },
  },
  {
    name: 'mood',
    kind: 'mood',
    example: 'mood 7',
    patterns: [
      new RegExp(String.raw`^\s*(?<keyword>mood|feeling|feel)\s*:?\s*(?<mood>\d{1,2})(?:\s*/\s*10)?(?:\s*,?\s*(?:and\s+)?(?<energyWord>energy|e)\s*:?\s*(?<energy>\d{1,2})(?:\s*/\s*10)?)?\s*$`, 'iud'),
      new RegExp(String.raw`^\s*(?<energyWord>energy)\s*:?\s*(?<energy>\d{1,2})(?:\s*/\s*10)?\s*,?\s*(?:and\s+)?(?<keyword>mood)\s*:?\s*(?<mood>\d{1,2})(?:\s*/\s*10)?\s*$`, 'iud'),
    ],
    meanings: { keyword: { meaning: 'mood' }, mood: { meaning: 'mood (1-10)', field: 'mood' }, energyWord: { meaning: 'energy' }, energy: { meaning: 'energy (1-10)', field: 'energy' } },
    takes: { date: true },
    build(g, found) {
      const mood = Number(g.mood);
      const energy = g.energy ? Number(g.energy) : undefined;
      const problems = [
        ...(inBounds(mood, 1, 10) ? [] : [problem('mood', 'mood must be 1 to 10')]),
        ...(energy === undefined || inBounds(energy, 1, 10) ? [] : [problem('energy', 'energy must be 1 to 10')]),
      ];
      return { fields: { date: logDate(found), mood, ...(energy !== undefined ? { energy } : {}), ...logTime(found) }, problems };
    },
  },
  {
    name: 'weight',
    kind: 'weight',
    example: 'weight 81.4kg',
    patterns: [
      new RegExp(
        String.raw`^\s*(?<keyword>weight|weigh|weighed(?:\s+in)?|weighing|wt|bw|body\s*weight|scale)\s*:?\s*(?:at\s+)?(?<weight>${NUM})\s*(?<unit>${WEIGHT_UNIT})?(?:\s*,?\s*(?<bfWord>bf|body\s*fat|fat)\s*:?\s*(?<bodyFat>${NUM})\s*%?)?\s*$`,
        'iud',
      ),
      new RegExp(String.raw`^\s*(?<weight>${NUM})\s*(?<unit>${WEIGHT_UNIT})\s+(?<keyword>(?:body\s*)?weight|on\s+the\s+scale)\s*$`, 'iud'),
    ],
    meanings: { keyword: { meaning: 'body weight' }, weight: { meaning: 'weight', field: 'weight' }, unit: { meaning: 'unit of weight' }, bfWord: { meaning: 'body fat' }, bodyFat: { meaning: 'body fat %', field: 'bodyFat' } },
    takes: { date: true },
    build(g, found) {
      const weight = kilograms(numberOf(g.weight!), g.unit);
      const bodyFat = g.bodyFat ? numberOf(g.bodyFat) : undefined;
      const problems = [
        ...(inBounds(weight, 0.01, 1000) ? [] : [problem('weight', 'weight must be above 0 and at most 1000 kg')]),
        ...(bodyFat === undefined || inBounds(bodyFat, 0, 100) ? [] : [problem('bodyFat', 'bodyFat must be 0 to 100')]),
      ];
      return { fields: { date: logDate(found), weight, ...(bodyFat !== undefined ? { bodyFat } : {}), ...logTime(found) }, assumptions: g.unit ? [] : ['no unit: kilograms'], problems };
    },
  },
  {
    name: 'training',
    kind: 'training',
    example: 'bench 3x5 80kg, squat 5x5 100kg',
    patterns: [
      new RegExp(
        String.raw`^\s*(?:(?<split>[\p{L}][\p{L} ]{0,30}?)\s*:\s*)?(?<exercises>[\p{L}][\p{L}0-9'/ -]*?\s+\d{1,2}\s*[x×*]\s*\d{1,3}(?:\s*(?:@|at)?\s*${NUM}\s*(?:${WEIGHT_UNIT})?)?(?:\s*[,;]\s*(?:and\s+)?[\p{L}][\p{L}0-9'/ -]*?\s+\d{1,2}\s*[x×*]\s*\d{1,3}(?:\s*(?:@|at)?\s*${NUM}\s*(?:${WEIGHT_UNIT})?)?)*)\s*$`,
        'iud',
      ),
    ],
    meanings: { split: { meaning: 'split label', field: 'split' } },
    takes: { date: true },
    build(g, found, at) {
      const text = found.line;
      const base = at('exercises')![0];
      const tokens: Token[] = [];
      const exercises: { name: string; sets: number; reps: number; load?: number }[] = [];
      const one = new RegExp(String.raw`(?<name>[\p{L}][\p{L}0-9'/ -]*?)\s+(?<sets>\d{1,2})\s*(?<x>[x×*])\s*(?<reps>\d{1,3})(?:\s*(?<at>@|at)?\s*(?<load>${NUM})\s*(?<unit>${WEIGHT_UNIT})?)?(?=\s*(?:[,;]|$))`, 'giud');
      const problems: { field: string; message: string }[] = [];
      for (const m of g.exercises!.matchAll(one)) {
        const inGroup = (name: string) => {
          const span = m.indices!.groups![name];
          return span ? ([base + span[0], base + span[1]] as const) : null;
        };
        const name = clean(m.groups!.name!.replace(/^\s*and\s+/i, ''));
        const nameStart = base + m.indices!.groups!.name![0] + m.groups!.name!.indexOf(name);
        const sets = Number(m.groups!.sets);
        const reps = Number(m.groups!.reps);
        const load = m.groups!.load ? kilograms(numberOf(m.groups!.load), m.groups!.unit) : undefined;
        tokens.push(token(text, nameStart, nameStart + name.length, 'exercise', `exercises[${exercises.length}].name`, name));
        const sx = inGroup('sets')!;
        const rx = inGroup('reps')!;
        tokens.push(token(text, sx[0], rx[1], `${sets} sets of ${reps} reps`, `exercises[${exercises.length}].sets`, { sets, reps }));
        if (load !== undefined) {
          const lx = inGroup('load')!;
          const ux = inGroup('unit');
          const atWord = inGroup('at');
          if (atWord) tokens.push(token(text, atWord[0], atWord[1], 'keyword'));
          tokens.push(token(text, lx[0], ux ? ux[1] : lx[1], `load ${load} kg`, `exercises[${exercises.length}].load`, load));
        }
        if (!inBounds(sets, 1, 50)) problems.push(problem(`exercises[${exercises.length}].sets`, 'sets must be 1 to 50'));
        if (!inBounds(reps, 1, 1000)) problems.push(problem(`exercises[${exercises.length}].reps`, 'reps must be 1 to 1000'));
        if (load !== undefined && !inBounds(load, 0, 1000)) problems.push(problem(`exercises[${exercises.length}].load`, 'load must be 0 to 1000 kg'));
        exercises.push({ name, sets, reps, ...(load !== undefined ? { load } : {}) });
      }
      if (!exercises.length) return null;
      const split = clean(g.split);
      const assumptions = split ? [] : [`no split label: "${exercises[0]!.name}"`];
      return { fields: { date: logDate(found), split: split || exercises[0]!.name, exercises, ...logTime(found) }, tokens, assumptions, problems };
    },
  },
  {
    name: 'reading',
    kind: 'reading',
    example: 'read 30 pages of Dune',
    patterns: [
      new RegExp(
        String.raw`^\s*(?<verb>read|reading|finished)\s+(?:(?<pages>\d{1,5})\s*(?<pagesWord>pages?|pp?\.?)\s+(?<of>of|in|from)\s+)?(?<book>.+?)(?:\s+(?<forWord>for|in))?(?:\s+(?<duration>${DURATION}))?(?:\s*,?\s*(?<pages2>\d{1,5})\s*(?<pagesWord2>pages?|pp?\.?))?\s*$`,
        'iud',
      ),
    ],
    meanings: {
      verb: { meaning: 'reading' },
      pages: { meaning: 'pages read', field: 'pagesRead' },
      pages2: { meaning: 'pages read', field: 'pagesRead' },
      pagesWord: { meaning: 'unit: pages' },
      pagesWord2: { meaning: 'unit: pages' },
      of: { meaning: 'keyword' },
      forWord: { meaning: 'keyword' },
      book: { meaning: 'book title', field: 'bookTitle' },
      duration: { meaning: 'duration', field: 'duration' },
    },
    takes: { date: true },
    build(g, found) {
      const pagesText = g.pages ?? g.pages2;
      let pages = pagesText ? Number(pagesText) : null;
      let minutes = g.duration ? minutesOf(g.duration) : null;
      if (pages === null && minutes === null) return null;
      const assumptions: string[] = [];
      // Both are required by a reading session: the one not said is estimated at 2 minutes a page.
      if (minutes === null) {
        minutes = Math.min(1440, pages! * 2);
        assumptions.push(`no duration: ${minutes} minutes (2 minutes a page)`);
      }
      if (pages === null) {
        pages = Math.max(1, Math.round(minutes / 2));
        assumptions.push(`no page count: ${pages} pages (2 minutes a page)`);
      }
      const problems = [
        ...(inBounds(pages, 1, 100_000) ? [] : [problem('pagesRead', 'pagesRead must be 1 to 100000')]),
        ...(inBounds(minutes, 1, 1440) ? [] : [problem('duration', 'duration must be 1 to 1440 minutes')]),
      ];
      return { fields: { date: logDate(found), bookTitle: clean(g.book), pagesRead: pages, duration: minutes }, assumptions, problems };
    },
  },
  {
    name: 'social',
    kind: 'social',
    example: 'lunch with Anna friday',
    patterns: [
      new RegExp(
        String.raw`^\s*(?:(?<past>had|have|met\s+for|grabbed|grab|went\s+for|going\s+for|went\s+to|go\s+for|go\s+to)\s+(?:a\s+|an\s+)?)?(?<what>${oneOf(['breakfast', 'brunch', 'lunch', 'dinner', 'supper', 'coffee', 'drinks?', 'beers?', 'a walk', 'walk', 'call', 'video call', 'movie', 'movies', 'cinema', 'party', 'date', 'game night', 'hike', 'run', 'catch[- ]?up', 'tea', 'picnic', 'bbq', 'barbecue', 'concert', 'visit'])})\s+(?<with>with)\s+(?<people>${PEOPLE})(?:\s+(?<atWord>at|in)\s+(?<location>[\p{L}\p{N}][\p{L}\p{N}'& -]{0,80}?))?\s*$`,
        'ud',
      ),
      new RegExp(String.raw`^\s*(?<past>met|meeting|meet|saw|see|seeing|visited|visit|called|call|hung\s+out\s+with|hanging\s+out\s+with|caught\s+up\s+with|catch\s+up\s+with)\s+(?:with\s+)?(?<people>${PEOPLE})(?:\s+(?<forWord>for)\s+(?<what>[\p{L}][\p{L} ]{0,30}?))?(?:\s+(?<atWord>at|in)\s+(?<location>[\p{L}\p{N}][\p{L}\p{N}'& -]{0,80}?))?\s*$`, 'ud'),
    ],
    meanings: {
      past: { meaning: 'keyword' },
      what: { meaning: 'what happened', field: 'title' },
      with: { meaning: 'keyword' },
      forWord: { meaning: 'keyword' },
      people: { meaning: 'people', field: 'people' },
      atWord: { meaning: 'keyword' },
      location: { meaning: 'location', field: 'location' },
    },
    takes: { date: true },
    build(g, found) {
      const what = (g.what ?? g.past ?? 'meet').trim().toLowerCase().replace(/^a\s+/, '');
      const people = names(clean(g.people));
      const label = /^(met|meeting|meet|saw|see|seeing|visited|visit|hung out with|hanging out with|caught up with|catch up with)$/.test(what) ? 'Met' : what[0]!.toUpperCase() + what.slice(1);
      const title = `${label} with ${people.join(', ')}`.slice(0, 200);
      const DEFAULTS: Record<string, [string, number]> = { breakfast: ['08:00', 60], brunch: ['11:00', 90], lunch: ['12:30', 60], coffee: ['15:00', 60], tea: ['15:00', 60], dinner: ['19:00', 120], supper: ['19:00', 120], drinks: ['19:00', 120], drink: ['19:00', 120], beers: ['19:00', 120], beer: ['19:00', 120], party: ['20:00', 180], 'game night': ['19:00', 180], movie: ['19:30', 150], movies: ['19:30', 150], cinema: ['19:30', 150], concert: ['20:00', 180] };
      const [defaultStart, length] = DEFAULTS[what] ?? ['18:00', 60];
      const assumptions: string[] = [];
      const start = found.date?.time ?? defaultStart;
      if (!found.date?.time) assumptions.push(`no time: ${start} (${what})`);
      let end = found.date?.endTime ?? null;
      if (!end) {
        const minutes = Number(start.slice(0, 2)) * 60 + Number(start.slice(3)) + length;
        end = minutes >= 1440 ? '23:59' : `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
        assumptions.push(`no end: ${end} (${length} minutes)`);
      }
      // Past words ("had lunch", "met") put a bare weekday in the week before; otherwise the coming one.
      const past = g.past && /^(had|met|grabbed|went|saw|visited|called|hung|caught)/i.test(g.past);
      const date = !found.date ? found.today : past ? logDate(found) : found.date.date;
      const fields = { date, title, startTime: start, endTime: end, people, ...(g.location ? { location: clean(g.location) } : {}) };
      // "lunch with Anna friday" without a tense: the coming Friday, or the last one.
      const other = found.date?.weekdayOnly ? (date > found.today ? addDaysText(date, -7) : date < found.today ? addDaysText(date, 7) : null) : null;
      const alternatives: Alternative[] = other ? [{ kind: 'social', summary: `${title} on ${other}`, fields: { ...fields, date: other } }] : [];
      return { fields, assumptions, alternatives };
    },
  },
  {
    name: 'habit entry',
    kind: 'habit_entry',
    example: 'did yoga 20 min',
    patterns: [
      new RegExp(
        String.raw`^\s*(?<verb>did|done|completed|finished|\u2713|\u2714|\u2705|x)\s+(?:my\s+|the\s+)?(?<habit>[\p{L}][\p{L}\p{N}' -]{0,80}?)(?:\s+(?<forWord>for))?(?:\s+(?<value>${NUM})\s*(?<unit>min(?:ute)?s?|m|h|hrs?|hours?|times|x|reps|km|mi|miles|pages|glasses)?)?\s*$`,
        'iud',
      ),
      new RegExp(String.raw`^\s*(?<habit>[\p{L}][\p{L}\p{N}' -]{0,80}?)\s+(?<verb>done|\u2713|\u2714|\u2705|complete|completed)\s*$`, 'iud'),
    ],
    meanings: {
      verb: { meaning: 'done' },
      habit: { meaning: 'habit', field: 'habitName' },
      forWord: { meaning: 'keyword' },
      value: { meaning: 'amount', field: 'value' },
      unit: { meaning: 'unit' },
    },
    takes: { date: true },
    build(g, found) {
      const value = g.value ? numberOf(g.value) : undefined;
      let unit = g.unit?.toLowerCase();
      let amount = value;
      if (unit && /^(h|hrs?|hours?)$/.test(unit) && value !== undefined) {
        amount = Math.round(value * 60);
        unit = 'min';
      } else if (unit && /^(m|mins?|minutes?)$/.test(unit)) unit = 'min';
      return { fields: { date: logDate(found), habitName: clean(g.habit), ...(amount !== undefined ? { value: amount } : {}), ...(unit ? { unit } : {}) } };
    },
  },
  {
    name: 'money',
    kind: 'expense',
    example: 'coffee 3.50 eur #food from checking',
    patterns: [
      // "spent 40 eur on groceries from checking", "paid €12 for lunch"
      new RegExp(String.raw`^\s*(?<verb>spent|paid|pay|bought|received|earned|got\s+paid)\s+(?<symbol>${SYMBOL})?\s*(?<amount>${NUM})\s*(?<currency>${CURRENCY})?\s+(?<forWord>on|for|from)\s+(?<description>.+?)${ACCOUNT}\s*$`, 'iud'),
      // "€12 lunch", "12 eur lunch at Joe's", "+2500 salary"
      new RegExp(String.raw`^\s*(?<sign>[+-])?\s*(?<symbol>${SYMBOL})?\s*(?<amount>${NUM})\s*(?<currency>${CURRENCY})?\s+(?:(?<forWord>for|on)\s+)?(?<description>[\p{L}].*?)${ACCOUNT}\s*$`, 'iud'),
      // "coffee 3.50 eur from checking", "salary +2500 eur to checking", "bought shoes 80"
      new RegExp(String.raw`^\s*(?<description>[\p{L}].*?)\s+(?:(?<costWord>for|cost|costs|was)\s+)?(?<sign>[+-])?\s*(?<symbol>${SYMBOL})?\s*(?<amount>${NUM})\s*(?<currency>${CURRENCY})?${ACCOUNT}\s*$`, 'iud'),
    ],
    meanings: {
      verb: { meaning: 'keyword' },
      forWord: { meaning: 'keyword' },
      costWord: { meaning: 'keyword' },
      sign: { meaning: 'sign' },
      symbol: { meaning: 'currency', field: 'currency' },
      amount: { meaning: 'amount', field: 'amount' },
      currency: { meaning: 'currency', field: 'currency' },
      description: { meaning: 'description', field: 'description' },
      account: { meaning: 'account', field: 'accountName' },
    },
    takes: { date: true, category: true },
    build(g, found) {
      const currencyText = g.symbol ?? g.currency;
      const currency = currencyOf(currencyText);
      // A three-letter word that is no currency ("coffee 3 cup") is not a currency: not this class.
      if (currencyText && !currency) return null;
      const amount = numberOf(g.amount!);
      if (!Number.isFinite(amount) || amount <= 0) return null;
      const description = clean(g.description);
      const words = `${g.verb ?? ''} ${description}`;
      const moneyish = currency || MONEY_VERBS.test(words) || INCOME_WORDS.test(words) || /[.,]\d{2}$/.test(g.amount!) || g.account || g.sign || found.category;
      if (!moneyish) return null;
      const income = g.sign === '+' || INCOME_WORDS.test(words);
      const cents = Math.round(amount * 100);
      const text = `${income ? '' : '-'}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
      const problems = cents <= 0 || cents >= 1e15 ? [problem('amount', 'amount must be above 0')] : [];
      return {
        kind: income ? 'income' : 'expense',
        fields: {
          date: logDate(found),
          amount: text,
          ...(currency ? { currency } : {}),
          description,
          ...(found.category ? { category: found.category.toLowerCase() } : {}),
          ...(g.account ? { accountName: clean(g.account) } : {}),
        },
        problems,
      };
    },
  },
  {
    name: 'habit or recurring task',
    kind: 'recurring_task',
    example: 'pay rent every month on the 1st',
    patterns: [new RegExp(String.raw`^\s*(?:(?<prefix>habit|new\s+habit|track|todo|task)\s*:?\s+)?(?<title>[\p{L}\p{N}].*?)(?:\s+(?<filler>on|at|starting|from|by))?\s*$`, 'iud')],
    meanings: { prefix: { meaning: 'keyword' }, title: { meaning: 'title', field: 'title' }, filler: { meaning: 'keyword' } },
    takes: { date: true, category: true, timebox: true, schedule: 'any' },
    needs: (found) => found.schedule !== null,
    build(g, found) {
      const title = clean(g.title);
      const schedule = found.schedule!;
      const prefix = g.prefix?.toLowerCase().replace(/\s+/g, ' ');
      const taskish = found.timebox !== null || found.category !== null || found.date?.time != null || prefix === 'todo' || prefix === 'task';
      const habit = prefix === 'habit' || prefix === 'new habit' || prefix === 'track' || schedule.kind === 'quota' || (!taskish && HABIT_WORDS.test(title));
      const scheduleFields = schedule.kind === 'quota' ? { quota: { times: schedule.times, per: schedule.per } } : { recurrence: schedule.rule };
      const habitFields = { name: title, ...scheduleFields };
      const taskFields =
        schedule.kind === 'rule'
          ? {
              title,
              recurrence: schedule.rule,
              from: found.date?.daySaid ? found.date.date : found.today,
              ...(found.date?.time ? { startTime: found.date.time } : {}),
              timebox: found.timebox ?? 30,
              ...(found.category ? { categoryName: found.category } : {}),
            }
          : null;
      const asHabit: Alternative = { kind: 'habit', summary: `habit "${title}" (${schedule.text})`, fields: habitFields };
      if (habit || !taskFields) {
        const alternatives: Alternative[] = taskFields ? [{ kind: 'recurring_task', summary: `recurring task "${title}" (${schedule.text})`, fields: taskFields }] : [];
        return { kind: 'habit', fields: habitFields, alternatives };
      }
      const assumptions = found.timebox === null ? ['no timebox: 30 minutes'] : [];
      return { kind: 'recurring_task', fields: taskFields, assumptions, alternatives: taskish ? [] : [asHabit] };
    },
  },
  {
    name: 'task',
    kind: 'task',
    example: 'write report tomorrow 9am ~90m #work',
    patterns: [new RegExp(String.raw`^\s*(?:(?<prefix>todo|task|to\s*do|remind\s+me\s+to|reminder)\s*:?\s+)?(?<title>[\p{L}\p{N}].*?)(?:\s+(?<filler>(?:on|at|by|due|before|until|for|from|in)(?:\s+the)?))?\s*$`, 'iud')],
    meanings: { prefix: { meaning: 'keyword' }, title: { meaning: 'title', field: 'title' }, filler: { meaning: 'keyword' } },
    takes: { date: true, category: true, timebox: true },
    needs: (found, g) => found.date !== null || found.timebox !== null || found.category !== null || g.prefix !== undefined,
    build(g, found) {
      // A time range ("3-4pm") says the timebox when no ~timebox does.
      const ranged = found.date?.time && found.date.endTime ? minutesBetween(found.date.time, found.date.endTime) : null;
      const timebox = found.timebox ?? ranged ?? 30;
      const assumptions = found.timebox === null && ranged === null ? ['no timebox: 30 minutes'] : [];
      const problems = !inBounds(timebox, 1, 1440) ? [problem('timebox', 'timebox must be 1 to 1440 minutes')] : [];
      return {
        fields: {
          title: clean(g.title),
          ...(found.date ? { date: found.date.date } : {}),
          ...(found.date?.time ? { startTime: found.date.time } : {}),
          timebox,
          ...(found.category ? { categoryName: found.category } : {}),
        },
        assumptions,
        problems,
      };
    },
  },
];
