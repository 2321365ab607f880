import { describe, expect, it } from 'vitest';
import { namedParameters } from './named-parameters.js';

describe('namedParameters', () => {
  it('numbers each name once and keeps casts', () => {
    const { text, values } = namedParameters('select :a::uuid[], :b, :a, x::text from t where y = :b_2', { a: [1], b: 'x', b_2: 3 });
    expect(text).toBe('select $1::uuid[], $2, $1, x::text from t where y = $3');
    expect(values).toEqual([[1], 'x', 3]);
  });

  it('refuses a name without a value', () => {
    expect(() => namedParameters('select :missing', {})).toThrow('no value for :missing');
  });
});
