import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addDays } from '../core/dates.js';
import type { Logger } from '../core/logger.js';
import { DEFAULT_TIMEZONE } from '../settings/user-settings.entity.js';
import type { InsightResult } from './find-insights.js';
import {
  claimDuePeople,
  ensureRunRows,
  finishRuns,
  rebuildAggregates,
  replaceInsights,
  storedAggregates,
  type AggregateRange,
  type DuePerson,
  type FoundInsights,
} from './insights.queries.js';

/** When a person's night comes: their local clock past this, once per local date. */
export const NIGHTLY_LOCAL_TIME = '03:00';
/** Days the correlations look back over (ending yesterday): a year. */
export const WINDOW_DAYS = 365;
/**
 * Days rebuilt on an ordinary night: entries added or changed for a day up to four weeks back are taken
 * in at once. The whole window is rebuilt on a person's first night and again every FULL_REBUILD_DAYS,
 * so an older edit, an import of past years or a deletion is taken in within a week (docs/insights.md).
 */
export const REBUILD_DAYS = 28;
export const FULL_REBUILD_DAYS = 7;
/**
 * People one batch claims, aggregates, tests and commits (one transaction): 25 people with a year
 * each is about 9,000 person-days in one INSERT … SELECT and a few hundred milliseconds of tests,
 * computed one person at a time with a turn of the event loop between them.
 */
export const BATCH_PEOPLE = 25;
/** Batches one job run makes at most; the people left are due again at the next run. */
export const BATCHES_PER_RUN = 40;

export interface NightlyOptions {
  /** The instant whose local dates and clocks decide who is due (default: now). */
  now?: Date;
  logger?: Logger;
  /** Stops between batches (shutdown, a lost job lock). */
  signal?: AbortSignal;
  /** Only these people (tests and the benchmark). */
  onlyUserIds?: readonly string[];
  batchPeople?: number;
  maxBatches?: number;
}

export interface NightlyRun {
  people: number;
  /** Person-days written. */
  days: number;
  tests: number;
  insights: number;
  batches: number;
  /** The longest one person's tests held the event loop (ms): the 50 ms rule. */
  slowestPersonMs: number;
  /** Stopped at the batch cap (or asked to stop) with people possibly still due. */
  more: boolean;
}

/** Whether tonight rebuilds `person`'s whole window: never done yet, or done FULL_REBUILD_DAYS ago or more. */
export function isFullRebuild(person: DuePerson): boolean {
  return !person.aggregatedThrough || !person.fullBuiltOn || person.fullBuiltOn <= addDays(person.today, -FULL_REBUILD_DAYS);
}

/** The range of `person` to rebuild tonight: the whole window on a full rebuild, else the last REBUILD_DAYS. */
export function rangeOf(person: DuePerson): AggregateRange {
  const to = addDays(person.today, -1);
  const keepFrom = addDays(person.today, -WINDOW_DAYS);
  const sinceLast = isFullRebuild(person) ? keepFrom : addDays(person.aggregatedThrough!, -REBUILD_DAYS + 1);
  const from = sinceLast > keepFrom ? (sinceLast > to ? to : sinceLast) : keepFrom;
  return { userId: person.userId, timezone: person.timezone, from, to, keepFrom };
}

/**
 * One batch in one transaction: claim due people (locked, SKIP LOCKED), rebuild their aggregates
 * set-based, read them back in one statement, test each person's pairs (a turn of the event loop
 * between people), replace their insights and mark them done for their local date; commit. Either all
 * of it is committed or none: a restart repeats nothing a committed batch did and redoes the rest.
 */
async function runBatch(em: EntityManager, now: Date, options: NightlyOptions): Promise<{ people: number; days: number; tests: number; insights: number; slowestPersonMs: number }> {
  // The statistics (stdlib's t distribution, ~7 MB of an idle process's memory) load with the first
  // run, not at start; before the transaction, which it would otherwise hold open while loading.
  const { findInsights } = await import('./find-insights.js');
  return em.transactional(async (tx) => {
    const limit = options.batchPeople ?? BATCH_PEOPLE;
    const people = await claimDuePeople(tx, now, NIGHTLY_LOCAL_TIME, DEFAULT_TIMEZONE, limit, options.onlyUserIds ?? null);
    if (!people.length) return { people: 0, days: 0, tests: 0, insights: 0, slowestPersonMs: 0 };
    const ranges = people.map(rangeOf);
    const days = await rebuildAggregates(tx, ranges);
    const rows = await storedAggregates(tx, ranges.map((r) => ({ userId: r.userId, from: r.keepFrom })));
    const byPerson = new Map<string, typeof rows>();
    for (const row of rows) {
      const list = byPerson.get(row.userId) ?? [];
      list.push(row);
      byPerson.set(row.userId, list);
    }
    const found: FoundInsights[] = [];
    const runs = [];
    let tests = 0;
    let insights = 0;
    let slowestPersonMs = 0;
    for (const person of people) {
      const started = performance.now();
      const result: InsightResult = findInsights(byPerson.get(person.userId) ?? []);
      slowestPersonMs = Math.max(slowestPersonMs, performance.now() - started);
      found.push({ userId: person.userId, findings: result.findings });
      // A person with no day at all yet (a new account) stays on their first run: the history an import
      // or a backfill brings later is then built whole, not from four weeks back.
      const built = byPerson.has(person.userId);
      runs.push({
        userId: person.userId,
        runDate: person.today,
        aggregatedThrough: built ? addDays(person.today, -1) : null,
        fullBuiltOn: built ? (isFullRebuild(person) ? person.today : person.fullBuiltOn) : null,
        tests: result.tests.length,
        found: result.findings.length,
      });
      tests += result.tests.length;
      insights += result.findings.length;
      await nextTurn();
    }
    await replaceInsights(tx, found, now);
    await finishRuns(tx, runs);
    return { people: people.length, days, tests, insights, slowestPersonMs };
  });
}

/**
 * The nightly insights of every person whose night has come (NIGHTLY_LOCAL_TIME in their time zone,
 * once per local date): batches of BATCH_PEOPLE, at most BATCHES_PER_RUN a run, each committed on its
 * own. Two runs at once share the due people (SKIP LOCKED); a person done tonight is not due again
 * until their next local date.
 */
export async function runNightlyInsights(em: EntityManager, options: NightlyOptions = {}): Promise<NightlyRun> {
  const now = options.now ?? new Date();
  const run: NightlyRun = { people: 0, days: 0, tests: 0, insights: 0, batches: 0, slowestPersonMs: 0, more: false };
  await ensureRunRows(em.fork());
  const maxBatches = options.maxBatches ?? BATCHES_PER_RUN;
  const limit = options.batchPeople ?? BATCH_PEOPLE;
  for (let batch = 0; batch < maxBatches; batch++) {
    if (options.signal?.aborted) return { ...run, more: true };
    const result = await runBatch(em.fork(), now, options);
    run.batches++;
    run.people += result.people;
    run.days += result.days;
    run.tests += result.tests;
    run.insights += result.insights;
    run.slowestPersonMs = Math.max(run.slowestPersonMs, result.slowestPersonMs);
    if (result.people < limit) return run;
    await nextTurn();
  }
  return { ...run, more: true };
}
