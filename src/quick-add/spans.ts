/**
 * A piece of the line and what it was understood as. Every non-space character of an understood line
 * lies in exactly one token, so the answer can show the line token by token.
 */
export interface Token {
  /** Offset of the first character (UTF-16 code units, as JavaScript strings count). */
  start: number;
  /** Offset after the last character. */
  end: number;
  text: string;
  /** What it was read as, in words ("date", "amount", "exercise", "keyword" …). */
  meaning: string;
  /** The field of the record it fills, when it fills one. */
  field?: string;
  /** The value it gave that field (a number, a date, a name …). */
  value?: unknown;
}

export function token(text: string, start: number, end: number, meaning: string, field?: string, value?: unknown): Token {
  const t: Token = { start, end, text: text.slice(start, end), meaning };
  if (field !== undefined) t.field = field;
  if (value !== undefined) t.value = value;
  return t;
}

/** The line with `tokens` blanked out (same length, so offsets keep their meaning). */
export function masked(text: string, tokens: readonly Pick<Token, 'start' | 'end'>[]): string {
  let out = text;
  for (const { start, end } of tokens) out = out.slice(0, start) + ' '.repeat(end - start) + out.slice(end);
  return out;
}

export function overlaps(a: Pick<Token, 'start' | 'end'>, b: Pick<Token, 'start' | 'end'>): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The words (runs of non-space) of `text` between `from` and `to` that no token covers. */
export function uncovered(text: string, tokens: readonly Pick<Token, 'start' | 'end'>[], from = 0, to = text.length): { start: number; end: number }[] {
  const covered = new Uint8Array(text.length);
  for (const t of tokens) covered.fill(1, t.start, t.end);
  const runs: { start: number; end: number }[] = [];
  let i = from;
  while (i < to) {
    if (covered[i] || /\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const start = i;
    while (i < to && !covered[i] && !/\s/.test(text[i]!)) i++;
    runs.push({ start, end: i });
  }
  return runs;
}

export const byStart = (a: Token, b: Token) => a.start - b.start || a.end - b.end;
