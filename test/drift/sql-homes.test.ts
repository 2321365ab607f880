import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Hand-written SQL lives in named places: a domain's `*.queries.ts` (and its `*.loaders.ts`), the
 * database kit (`src/core/database/`) and the migrations. Services, resolvers and routes call named
 * functions, so a query change shows in a file made for queries.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const HAND_SQL =
  /\bqueryRows\s*\(|getConnection\(\)\s*\.execute\b|\b(?:em|tx|this\.em)\s*\.execute\s*[<(]|getKnex\(|knex\.raw\(|\.query(?:<[^>]*>)?\(\s*[`'"]\s*(?:select|insert|update|delete|with)\b/i;
const HOME = /(\.queries|\.loaders)\.ts$|^src\/core\/database\/|^src\/migrations\//;

/**
 * Two core modules keep their one statement beside the code it serves: the outbox insert that every
 * write composes (record-event.ts builds it with the ORM's own query builder) and the job runner's
 * advisory lock around Agenda's schema set-up. The list may only shrink.
 */
const NOT_YET_MOVED = [
  'src/core/events/record-event.ts',
  'src/jobs/job-runner.ts',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$|test-helpers\.ts$/.test(name) ? [path] : [];
  });
}

describe('hand-written SQL', () => {
  it('is only in *.queries.ts, *.loaders.ts, the database kit and the migrations (services call named functions)', () => {
    const holding = ['src', 'rest']
      .flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((path) => !HOME.test(path) && HAND_SQL.test(readFileSync(join(ROOT, path), 'utf8')))
      .sort();
    expect(holding.filter((path) => /\.(service|resolver|routes|types)\.ts$/.test(path)), 'move the SQL to the domain\'s *.queries.ts').toEqual([]);
    expect(holding).toEqual(NOT_YET_MOVED);
  });

  it('is recognised in the forms the code uses (a planted statement in a service is found)', () => {
    for (const planted of [
      "await queryRows(em, 'select 1', []);",
      "await this.em.getConnection().execute('select 1');",
      'await this.em\n  .getConnection()\n  .execute(sql, params);',
      "await this.pool.query(`update webhook_deliveries set status = 'failed'`);",
      "await em.execute<{ n: number }[]>('select 1');",
      "await tx.execute('select 1');",
    ]) {
      expect(HAND_SQL.test(planted), planted).toBe(true);
    }
    expect(HAND_SQL.test("await em.createQueryBuilder(Exercise).insert(rows).onConflict('id').ignore().execute();")).toBe(false);
  });
});
