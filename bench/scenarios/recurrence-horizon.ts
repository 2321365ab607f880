import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { readCpuSeconds } from '../lib/memory.js';
import { percentile, printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';

/**
 * Issue 34 item 2: one person's recurring task series read far from their start. The person makes
 * SERIES series, all starting 2028-02-29 (a date every rule below falls on): each first tries the
 * audit's sub-daily COUNT rule (accepted before the horizon, 200 of them made one 2999 read take 241 s)
 * and, when that is refused, takes the next of the worst rules the horizon accepts (the largest COUNT
 * reached within COUNT_HORIZON_PERIODS of the start, at most 1,000). Then `GET /agenda/range` for a
 * week in 2200 and one in 2999 (each with a timeout), while another person's `GET /tasks` runs in a
 * loop: its median and p99 against the same loop with nothing else going on, and the service's CPU.
 *
 * BENCH_RECURRENCE_SERIES (default 200, the per-person series limit), BENCH_RECURRENCE_ATTACK=0 to
 * skip the sub-daily rule (the worst accepted rules only, on any code), BENCH_RECURRENCE_READS (reads
 * per week, default 3; none after one times out), BENCH_RECURRENCE_TIMEOUT_S (default 120),
 * BENCH_RECURRENCE_YEARS (default `2200,2999`). A read that times out goes on in the service: before the
 * next week the scenario waits (at most the timeout) until the service is idle and reports how long.
 */
const SERIES = Number(process.env.BENCH_RECURRENCE_SERIES ?? 200);
const ATTACK = process.env.BENCH_RECURRENCE_ATTACK !== '0';
const READS = Number(process.env.BENCH_RECURRENCE_READS ?? 3);
const TIMEOUT_MS = Number(process.env.BENCH_RECURRENCE_TIMEOUT_S ?? 120) * 1000;
const YEARS = (process.env.BENCH_RECURRENCE_YEARS ?? '2200,2999').split(',').map((year) => year.trim());
const IDLE_MS = 5000;
/** Below this share of a core over a second, the service counts as idle again. */
const IDLE_CORE_SHARE = 0.05;

const START = '2028-02-29';
const ATTACK_RULE = 'FREQ=SECONDLY;COUNT=1000;BYMONTH=2;BYMONTHDAY=29;BYHOUR=0;BYMINUTE=0;BYSECOND=0';
/** The edge of the horizon from START (found with requireCountWithinHorizon; one more COUNT is a 400). */
const ACCEPTED_RULES = [
  'FREQ=YEARLY;COUNT=889;BYMONTH=2;BYMONTHDAY=29', // last date 5688-02-29: alive in both weeks
  'FREQ=MONTHLY;COUNT=74;BYMONTH=2;BYMONTHDAY=29', // 2332-02-29: alive in 2200
  'FREQ=WEEKLY;COUNT=18;BYMONTH=2;BYMONTHDAY=29', // 2096-02-29: the dearest to check when written
  'FREQ=DAILY;COUNT=1000', // 2030-11-24
];
/** The week of 24 February to 2 March: a 29 February would fall in it (2200 and 2999 have none). */
const WEEKS = YEARS.map((year) => ({ label: `week in ${year}`, start: `${year}-02-24T00:00:00.000Z`, end: `${year}-03-02T23:59:59.999Z` }));

/** Monday on or before `date` (the week the service generates around it). */
function mondayOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

async function timed(work: () => Promise<{ status: number }>): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const { status } = await work();
  return { status, ms: performance.now() - started };
}

/** Another person's `GET /tasks` one after another until `stop()`: the latencies in ms. */
function tasksLoop(client: HttpClient): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let going = true;
  const loop = (async () => {
    while (going) times.push((await timed(() => client.get('/api/v1/tasks'))).ms);
  })();
  return {
    async stop() {
      going = false;
      await loop;
      return times;
    },
  };
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database, { DISABLE_RATE_LIMIT: 'true' });
  const { client: owner } = await signUp(service.url, `bench-recurrence-${Date.now()}@example.com`);
  const { client: other } = await signUp(service.url, `bench-recurrence-other-${Date.now()}@example.com`);
  for (let i = 0; i < 20; i++) await other.post('/api/v1/tasks', { title: `Errand ${i}`, timebox: 30 });

  const week = await owner.post('/api/v1/weeks/generate', { startDate: mondayOf(START) });
  if (week.status !== 200 && week.status !== 201) throw new Error(`week generation: ${week.status} ${week.text}`);
  const dayId: string = week.body.data.days.find((d: { date: string }) => d.date === START).id;

  // The series: the attack rule first, then the worst accepted ones in turn.
  const made = new Map<string, number>();
  const refused = new Map<string, number>();
  const createMs: number[] = [];
  const count = (map: Map<string, number>, rule: string) => map.set(rule, (map.get(rule) ?? 0) + 1);
  const create = async (rule: string, i: number) => {
    const started = performance.now();
    const res = await owner.post('/api/v1/tasks', { title: `Series ${i}`, timebox: 30, dayId, recurrence: rule });
    if (res.status === 201) {
      createMs.push(performance.now() - started);
      count(made, rule);
      return true;
    }
    if (res.status !== 400) throw new Error(`POST /tasks ${rule}: ${res.status} ${res.text}`);
    count(refused, rule);
    return false;
  };
  let next = 0;
  for (let i = 0; i < SERIES; i++) {
    if (ATTACK && (await create(ATTACK_RULE, i))) continue;
    for (let tries = 0; tries < ACCEPTED_RULES.length; tries++) {
      if (await create(ACCEPTED_RULES[next++ % ACCEPTED_RULES.length]!, i)) break;
    }
  }
  const ruleRows = [...new Set([...made.keys(), ...refused.keys()])].map((rule) => [rule, made.get(rule) ?? 0, refused.get(rule) ?? 0]);
  console.log('');
  printTable(['rule (from 2028-02-29)', 'made', 'refused'], ruleRows);
  console.log(`POST /tasks of a series: median ${round(percentile(createMs, 50), 0)} ms, p99 ${round(percentile(createMs, 99), 0)} ms`);

  // The other person's reads with nothing else going on.
  const cpu = () => readCpuSeconds(service.pid) ?? NaN;
  const phaseRows: (string | number)[][] = [];
  const idle = tasksLoop(other);
  const idleCpu = cpu();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const idleTimes = await idle.stop();
  phaseRows.push(['idle (5 s)', '-', '-', round(cpu() - idleCpu, 2), idleTimes.length, round(percentile(idleTimes, 50), 0), round(percentile(idleTimes, 99), 0), '-']);
  /** Seconds until the service spends under IDLE_CORE_SHARE of a core over a second (at most the timeout). */
  const untilIdle = async () => {
    const started = performance.now();
    while (performance.now() - started < TIMEOUT_MS) {
      const before = cpu();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (cpu() - before < IDLE_CORE_SHARE) break;
    }
    return (performance.now() - started) / 1000;
  };

  const readAgenda = async (from: string, to: string) => {
    const url = `${service.url}/api/v1/agenda/range?start=${encodeURIComponent(from)}&end=${encodeURIComponent(to)}`;
    const started = performance.now();
    try {
      const res = await fetch(url, { headers: { cookie: owner.cookie! }, signal: AbortSignal.timeout(TIMEOUT_MS) });
      const body = (await res.json()) as { data?: unknown[] };
      return { outcome: String(res.status), entries: body.data?.length ?? 0, ms: performance.now() - started };
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      return { outcome: `timeout ${TIMEOUT_MS / 1000} s`, entries: 0, ms: performance.now() - started };
    }
  };
  const reads: { week: string; outcome: string; entries: number; ms: number }[] = [];
  for (const { label, start, end } of WEEKS) {
    const loop = tasksLoop(other);
    const before = cpu();
    const times: number[] = [];
    let outcome = '';
    let entries = 0;
    for (let i = 0; i < READS; i++) {
      const read = await readAgenda(start, end);
      reads.push({ week: label, ...read });
      times.push(read.ms);
      ({ outcome, entries } = read);
      if (read.outcome.startsWith('timeout')) break;
    }
    const spent = cpu() - before;
    const others = await loop.stop();
    const busyAfterS = outcome.startsWith('timeout') ? await untilIdle() : 0;
    phaseRows.push([
      `${label} (${times.length} read${times.length === 1 ? '' : 's'})`,
      `${outcome}, ${entries} entries`,
      times.map((ms) => round(ms, 0)).join(' / '),
      round(spent, 2),
      others.length,
      round(percentile(others, 50), 0),
      round(percentile(others, 99), 0),
      busyAfterS ? `${round(busyAfterS, 0)} s` : '-',
    ]);
  }
  console.log('');
  printTable(['phase', 'agenda answer', 'agenda read ms', 'service CPU s', "other's GET /tasks", 'median ms', 'p99 ms', 'busy after a timeout'], phaseRows);
  return {
    scenario: 'recurrence-horizon',
    measuredAt: new Date().toISOString(),
    series: SERIES,
    attack: ATTACK,
    timeoutS: TIMEOUT_MS / 1000,
    rules: ruleRows.map(([rule, madeCount, refusedCount]) => ({ rule, made: madeCount, refused: refusedCount })),
    createMs: { median: round(percentile(createMs, 50), 1), p99: round(percentile(createMs, 99), 1) },
    phases: phaseRows,
    reads,
  };
}

const scenario: Scenario = {
  name: 'recurrence-horizon',
  description: "issue 34.2: 200 COUNT series read in 2200 and 2999 (agenda range time, another person's GET /tasks meanwhile)",
  run,
};
export default scenario;
