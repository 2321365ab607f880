import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to.js';

describe('safeReturnTo', () => {
  it.each([
    ['/plan?week=1#today', '/plan?week=1#today'],
    ['/a/../b', '/b'],
    [undefined, '/'],
    [['/x'], '/'],
    ['plan', '/'],
    ['https://evil.example/', '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['/\tevil', '/'],
    ['/%0d%0aSet-Cookie:x', '/%0d%0aSet-Cookie:x'],
  ])('%j → %s', (raw, expected) => {
    expect(safeReturnTo(raw)).toBe(expected);
  });
});
