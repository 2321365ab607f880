import { describe, expect, it } from 'vitest';
import { sharedCheck, type DependencyCheck } from './health.js';

/** /readyz's reuse of a remote probe (docs/operations.md → Dependencies), on a clock passed in. */
describe('sharedCheck', () => {
  function probed(cacheMs: number) {
    let clock = 1_000_000;
    const dependency: DependencyCheck & { asked: number } = {
      name: 'smtp',
      required: false,
      cacheMs,
      asked: 0,
      async check() {
        dependency.asked++;
      },
    };
    return { dependency, check: sharedCheck(dependency, () => clock), advance: (ms: number) => (clock += ms) };
  }

  it('asks once for requests arriving together and for those within cacheMs, and again after it', async () => {
    const { dependency, check, advance } = probed(5_000);
    expect(await Promise.all([check(), check()])).toEqual([{ state: 'up' }, { state: 'up' }]);
    advance(4_999);
    expect(await check()).toEqual({ state: 'up' });
    expect(dependency.asked).toBe(1);
    advance(1);
    await check();
    expect(dependency.asked).toBe(2);
  });

  it('asks on every request after the last settled when cacheMs is 0', async () => {
    const { dependency, check } = probed(0);
    await Promise.all([check(), check()]);
    await check();
    expect(dependency.asked).toBe(2);
  });
});
