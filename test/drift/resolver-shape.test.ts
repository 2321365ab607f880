import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Resolvers declare what they need: who may call them (`@Authorized`, src/core/authorization.ts), the
 * signed-in user (`@CurrentUserId()`, src/core/current-user.ts) and their services (`@Service(X)`,
 * src/core/request-services.ts, the one place a service is made for a request). None checks the
 * session or builds a service by hand.
 */
const ROOT = join(import.meta.dirname, '..', '..');

function resolverFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return resolverFiles(path);
    return name.endsWith('.resolver.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

const IMPERATIVE = [
  { what: 'a session check by hand (use @Authorized and @CurrentUserId())', pattern: /\brequireAuth\s*\(/ },
  { what: 'a service made by hand (use @Service(X) or serviceFor(ctx, X))', pattern: /\bnew \w+Service\s*\(/ },
  { what: 'a service factory of its own', pattern: /function \w+\(ctx: AppContext\): (?:Promise<)?\w+Service\b/ },
];

describe('resolvers', () => {
  const files = resolverFiles(join(ROOT, 'src'));

  it('are found', () => {
    expect(files.length).toBeGreaterThan(30);
  });

  it.each(IMPERATIVE)('hold no $what', ({ pattern }) => {
    expect(files.filter((path) => pattern.test(readFileSync(join(ROOT, path), 'utf8')))).toEqual([]);
  });

  it('recognise the imperative forms (a planted one is found)', () => {
    expect(IMPERATIVE[0]!.pattern.test('const userId = requireAuth(ctx).user.id;')).toBe(true);
    expect(IMPERATIVE[1]!.pattern.test('return new TaskService(ctx.em).list(userId, args);')).toBe(true);
    expect(IMPERATIVE[2]!.pattern.test('async function books(ctx: AppContext): Promise<BookService> {')).toBe(true);
  });
});
