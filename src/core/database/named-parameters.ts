/**
 * A statement with `:name` placeholders as pg wants it (`$1`, `$2`, …): each name gets one number, so
 * a value used twice is sent once. `::type` casts are left alone. A name missing from `values` throws,
 * so a typo fails at once rather than binding `undefined`.
 */
export function namedParameters(text: string, values: Record<string, unknown>): { text: string; values: unknown[] } {
  const numbers = new Map<string, number>();
  const ordered: unknown[] = [];
  const numbered = text.replace(/(?<![:\w]):([a-zA-Z_]\w*)/g, (_match, name: string) => {
    let n = numbers.get(name);
    if (n === undefined) {
      if (!(name in values)) throw new Error(`no value for :${name}`);
      ordered.push(values[name]);
      n = ordered.length;
      numbers.set(name, n);
    }
    return `$${n}`;
  });
  return { text: numbered, values: ordered };
}
