import { describe, expect, it } from 'vitest';
import { jsonBytesOver } from './answer-size.js';

/** The exact ceiling at which `value` is no longer over: its measured weight. */
function measured(value: unknown): number {
  let low = 0;
  let high = 1 << 24;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if (jsonBytesOver(value, mid)) low = mid + 1;
    else high = mid;
  }
  return low;
}

describe('the weight of an answer', () => {
  it('counts strings in UTF-8 bytes, as they go on the wire, not in characters', () => {
    expect(measured('a'.repeat(1000))).toBe(1002);
    expect(measured('é'.repeat(1000))).toBe(2002);
    expect(measured('€'.repeat(1000))).toBe(3002);
    expect(measured('😀'.repeat(10))).toBe(42);
  });

  it('counts a character JSON escapes at its widest (a control character is written \\u0001)', () => {
    expect(measured('\u0001'.repeat(100))).toBe(602);
    expect(JSON.stringify('\u0001'.repeat(100))).toHaveLength(602);
  });

  it('counts a string repeated under aliases every time it appears', () => {
    const description = 'x'.repeat(10_000);
    const answer = { tasks: Array.from({ length: 3 }, () => Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`d${i}`, description]))) };
    expect(measured(answer)).toBeGreaterThan(14 * 3 * 10_000);
    expect(jsonBytesOver(answer, 400_000)).toBe(true);
  });
});
