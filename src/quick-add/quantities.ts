/**
 * Numbers and amounts as people type them: `3.50` and `3,50`, `8k`, `10,000`, durations `7h20`,
 * `1.5h`, `90m`, `1:30`, `2 hours 15 min`. Pure functions, no clock.
 */

/** A decimal number with `.` or `,` as the decimal mark (one or two decimals after a comma). */
export const NUMBER = String.raw`\d+(?:[.,]\d+)?`;

/** `3.50`, `3,50`, `10,000` (thousands), `8k`. NaN when it is not a number. */
export function numberOf(raw: string): number {
  let text = raw.trim().toLowerCase().replace(/['\s_]/g, '');
  let factor = 1;
  if (text.endsWith('k')) {
    factor = 1000;
    text = text.slice(0, -1);
  }
  // A comma followed by exactly three digits (and no other mark) groups thousands: 10,000 steps.
  if (/^\d{1,3}(,\d{3})+$/.test(text)) text = text.replace(/,/g, '');
  else text = text.replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(text)) return Number.NaN;
  return Number(text) * factor;
}

/**
 * A duration (`7h20`, `7h 20m`, `7.5h`, `7:20`, `90 min`, `2 hours 15 minutes`, `1 hr`) as minutes;
 * null when the text is none of these.
 */
export const DURATION = String.raw`(?:\d+(?:[.,]\d+)?\s*(?:h|hrs?|hours?)(?:\s*\d{1,2}\s*(?:m|mins?|minutes?)?)?|\d{1,2}:\d{2}|\d+\s*(?:m|mins?|minutes?))`;

const HOURS_THEN_MINUTES = /^(\d+(?:[.,]\d+)?)\s*(?:h|hrs?|hours?)(?:\s*(\d{1,2})\s*(?:m|mins?|minutes?)?)?$/i;
const CLOCK = /^(\d{1,2}):(\d{2})$/;
const MINUTES = /^(\d+)\s*(?:m|mins?|minutes?)$/i;

export function minutesOf(raw: string): number | null {
  const text = raw.trim();
  let m = HOURS_THEN_MINUTES.exec(text);
  if (m) return Math.round(numberOf(m[1]!) * 60 + (m[2] ? Number(m[2]) : 0));
  m = CLOCK.exec(text);
  if (m) return Number(m[1]) * 60 + Number(m[2]);
  m = MINUTES.exec(text);
  if (m) return Number(m[1]);
  return null;
}

/** Millilitres of a volume with its unit; a glass is 250 ml, a cup 240 ml, a bottle 500 ml (said in the answer). */
export const VOLUME_UNITS: Readonly<Record<string, { ml: number; assumed?: string }>> = {
  ml: { ml: 1 },
  cl: { ml: 10 },
  dl: { ml: 100 },
  l: { ml: 1000 },
  litre: { ml: 1000 },
  liter: { ml: 1000 },
  oz: { ml: 29.5735 },
  glass: { ml: 250, assumed: 'a glass is 250 ml' },
  cup: { ml: 240, assumed: 'a cup is 240 ml' },
  bottle: { ml: 500, assumed: 'a bottle is 500 ml' },
};

export const VOLUME_UNIT = String.raw`(?:ml|millilit(?:re|er)s?|cl|dl|l|lit(?:re|er)s?|oz|glass(?:es)?|cups?|bottles?)`;

export function millilitres(amount: number, unit: string): { ml: number; assumed?: string } {
  const u = unit.toLowerCase().replace(/es$|s$/, '');
  const key = u.startsWith('millilit') ? 'ml' : u.startsWith('lit') ? 'l' : u;
  const found = VOLUME_UNITS[key] ?? VOLUME_UNITS.ml!;
  return { ml: Math.round(amount * found.ml), assumed: found.assumed };
}

/** Kilograms of a weight with its unit (kg by default). */
export function kilograms(amount: number, unit: string | undefined): number {
  const u = (unit ?? 'kg').toLowerCase();
  const kg = /^(lb|lbs|pounds?)$/.test(u) ? amount * 0.45359237 : amount;
  return Math.round(kg * 100) / 100;
}

export const WEIGHT_UNIT = String.raw`(?:kgs?|kilos?|kilograms?|lbs?|pounds?)`;

const WORD_NUMBERS: Readonly<Record<string, number>> = { once: 1, twice: 2, thrice: 3, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };

/** `3`, `twice`, `three` → 3; NaN otherwise. */
export function countOf(raw: string): number {
  const text = raw.trim().toLowerCase();
  return WORD_NUMBERS[text] ?? (/^\d+$/.test(text) ? Number(text) : Number.NaN);
}
