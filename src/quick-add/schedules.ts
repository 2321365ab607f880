import { type Token, token } from './spans.js';

/**
 * How often something repeats, as people say it: a rule ("every month on the 1st" →
 * `FREQ=MONTHLY;BYMONTHDAY=1`, written in the recurrence core's RRULE form) or a quota ("3x per week":
 * any 3 days of each week, which only a habit has). The phrases are a table; the first that matches
 * wins and its span is taken out of the line before dates are read (so "the 1st" is not a date).
 */
export type Schedule = { kind: 'rule'; rule: string; text: string } | { kind: 'quota'; times: number; per: 'week' | 'month'; text: string };

const DAYS: Readonly<Record<string, string>> = {
  mon: 'MO', monday: 'MO', mondays: 'MO',
  tue: 'TU', tues: 'TU', tuesday: 'TU', tuesdays: 'TU',
  wed: 'WE', weds: 'WE', wednesday: 'WE', wednesdays: 'WE',
  thu: 'TH', thur: 'TH', thurs: 'TH', thursday: 'TH', thursdays: 'TH',
  fri: 'FR', friday: 'FR', fridays: 'FR',
  sat: 'SA', saturday: 'SA', saturdays: 'SA',
  sun: 'SU', sunday: 'SU', sundays: 'SU',
};
const DAY = String.raw`(?:mon(?:days?)?|tue(?:s(?:days?)?)?|wed(?:s|nesdays?)?|thu(?:r(?:s(?:days?)?)?)?|fri(?:days?)?|sat(?:urdays?)?|sun(?:days?)?)`;
const DAY_LIST = String.raw`${DAY}(?:\s*(?:,|and|&|\+)\s*${DAY})*`;
const ORDINAL = String.raw`(?:(\d{1,2})(?:st|nd|rd|th)?|first|last)`;
const NTH: Readonly<Record<string, number>> = { first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, last: -1 };
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const QUOTA_COUNT = String.raw`(?:\d{1,2}|once|twice|thrice|one|two|three|four|five|six)`;
const WORD_COUNTS: Readonly<Record<string, number>> = { once: 1, twice: 2, thrice: 3, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6 };

const byDays = (list: string) => [...new Set((list.toLowerCase().match(/[a-z]+/g) ?? []).filter((w) => DAYS[w]).map((w) => DAYS[w]!))].join(',');
const monthDay = (raw: string | undefined) => (!raw || raw.toLowerCase() === 'last' ? -1 : raw.toLowerCase() === 'first' ? 1 : Number(raw));
const interval = (n: string | undefined) => (n && Number(n) > 1 ? `;INTERVAL=${Number(n)}` : '');

interface SchedulePhrase {
  pattern: RegExp;
  build(m: RegExpExecArray): Schedule | null;
}

const rule = (r: string) => (m: RegExpExecArray): Schedule => ({ kind: 'rule', rule: r, text: m[0] });

/** The phrases, most specific first. Each pattern is matched anywhere in the line, on word bounds. */
export const SCHEDULE_PHRASES: readonly SchedulePhrase[] = [
  // Quotas: "3x per week", "3 times a week", "twice a month", "3x/week", "4 days a week".
  {
    pattern: new RegExp(String.raw`\b(${QUOTA_COUNT})\s*(?:x|times|days)?\s*(?:a|per|/|each|every|in\s+a)\s*(week|wk|month)\b`, 'i'),
    build: (m) => {
      const times = WORD_COUNTS[m[1]!.toLowerCase()] ?? Number(m[1]);
      return times >= 1 && times <= 31 ? { kind: 'quota', times, per: m[2]!.toLowerCase().startsWith('w') ? 'week' : 'month', text: m[0] } : null;
    },
  },
  // "every month on the 1st", "monthly on the 15th", "every month on the last day"
  {
    pattern: new RegExp(String.raw`\b(?:every\s+(\d+\s+)?months?|monthly)\s+on\s+the\s+${ORDINAL}(?:\s+day)?\b`, 'i'),
    build: (m) => ({ kind: 'rule', rule: `FREQ=MONTHLY${interval(m[1])};BYMONTHDAY=${monthDay(m[2] ?? m[0].match(/first|last/i)?.[0])}`, text: m[0] }),
  },
  // "on the 1st of every month", "every 1st of the month", "the 15th of each month"
  {
    pattern: new RegExp(String.raw`\b(?:(?:on\s+)?the\s+|every\s+)${ORDINAL}(?:\s+day)?\s+of\s+(?:every|each|the)\s+month\b`, 'i'),
    build: (m) => ({ kind: 'rule', rule: `FREQ=MONTHLY;BYMONTHDAY=${monthDay(m[1] ?? m[0].match(/first|last/i)?.[0])}`, text: m[0] }),
  },
  // "every first monday of the month", "every last friday of the month", "on the second tuesday of every month"
  {
    pattern: new RegExp(String.raw`\b(?:every|on\s+the|the)\s+(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+(${DAY})\s+of\s+(?:the|every|each)\s+month\b`, 'i'),
    build: (m) => ({ kind: 'rule', rule: `FREQ=MONTHLY;BYDAY=${NTH[m[1]!.toLowerCase()]}${byDays(m[2]!)}`, text: m[0] }),
  },
  // "every year on march 3", "yearly on 3 march", "every year on the 3rd of march"
  {
    pattern: new RegExp(String.raw`\b(?:every\s+year|yearly|annually)\s+on\s+(?:(${MONTH})\s+(\d{1,2})(?:st|nd|rd|th)?|(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(${MONTH}))\b`, 'i'),
    build: (m) => {
      const month = MONTHS.indexOf((m[1] ?? m[4]!).slice(0, 3).toLowerCase()) + 1;
      const day = Number(m[2] ?? m[3]);
      return day >= 1 && day <= 31 ? { kind: 'rule', rule: `FREQ=YEARLY;BYMONTH=${month};BYMONTHDAY=${day}`, text: m[0] } : null;
    },
  },
  // "every monday", "every tue and thu", "on mondays and fridays", "every week on friday", "weekly on sat"
  {
    pattern: new RegExp(String.raw`\b(?:every\s+(?:(\d+|other)\s+)?weeks?\s+on\s+|weekly\s+on\s+|every\s+(?:(other)\s+)?|on\s+(?=${DAY}s\b))(${DAY_LIST})\b`, 'i'),
    build: (m) => {
      const n = m[1] === 'other' || m[2] ? '2' : m[1];
      return { kind: 'rule', rule: `FREQ=WEEKLY${interval(n)};BYDAY=${byDays(m[3]!)}`, text: m[0] };
    },
  },
  { pattern: /\b(?:every\s+weekday|on\s+weekdays|weekdays|every\s+work\s*day|mon(?:day)?\s*-\s*fri(?:day)?)\b/i, build: rule('FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR') },
  { pattern: /\b(?:every\s+weekend|on\s+weekends|weekends)\b/i, build: rule('FREQ=WEEKLY;BYDAY=SA,SU') },
  // "every day", "daily", "every morning", "every night", "each day", "every 2 days", "every other day"
  {
    pattern: /\b(?:every\s+(?:(\d+|other)\s+)?days?|daily|each\s+day|every\s+(?:single\s+)?(?:day|morning|evening|night)|nightly)\b/i,
    build: (m) => ({ kind: 'rule', rule: `FREQ=DAILY${interval(m[1] === 'other' ? '2' : m[1])}`, text: m[0] }),
  },
  {
    pattern: /\b(?:every\s+(?:(\d+|other)\s+)?weeks?|weekly|each\s+week|fortnightly|biweekly)\b/i,
    build: (m) => ({ kind: 'rule', rule: `FREQ=WEEKLY${interval(m[1] === 'other' || /fortnightly|biweekly/i.test(m[0]) ? '2' : m[1])}`, text: m[0] }),
  },
  {
    pattern: /\b(?:every\s+(?:(\d+|other)\s+)?months?|monthly|each\s+month|quarterly)\b/i,
    build: (m) => ({ kind: 'rule', rule: `FREQ=MONTHLY${interval(/quarterly/i.test(m[0]) ? '3' : m[1] === 'other' ? '2' : m[1])}`, text: m[0] }),
  },
  { pattern: /\b(?:every\s+(?:(\d+)\s+)?years?|yearly|annually|each\s+year)\b/i, build: (m) => ({ kind: 'rule', rule: `FREQ=YEARLY${interval(m[1])}`, text: m[0] }) },
];

/** The first schedule phrase in `text` (on its masked form), with its token; null when there is none. */
export function findSchedule(text: string): { schedule: Schedule; token: Token } | null {
  for (const phrase of SCHEDULE_PHRASES) {
    const m = phrase.pattern.exec(text);
    if (!m) continue;
    const schedule = phrase.build(m);
    if (!schedule) continue;
    const meaning = schedule.kind === 'quota' ? `${schedule.times} times per ${schedule.per}` : `repeats (${schedule.rule})`;
    const value = schedule.kind === 'quota' ? { times: schedule.times, per: schedule.per } : schedule.rule;
    return { schedule, token: token(text, m.index, m.index + m[0].length, meaning, schedule.kind === 'quota' ? 'quota' : 'recurrence', value) };
  }
  return null;
}
