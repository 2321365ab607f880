import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MB, sampleRss } from '../lib/memory.js';
import { percentile, printTable, round } from '../lib/report.js';
import { probeHealth } from '../lib/health-probe.js';
import type { BenchService, Scenario, ScenarioContext } from '../lib/scenario.js';

/**
 * Issue 23 items 1, 2 and 21: the CSV imports under the audit's files.
 * - the upload bombs: 10 MB of a header and 5 million short lines, and a header of a million columns
 *   (answer, time to answer, RSS, the longest /healthz wait meanwhile);
 * - 50,000 bank rows (the most an import takes) and a Goodreads library of 1,197 books: time to done,
 *   and the p50/p99 of a task-list read made every 50 ms during the import next to the same reads before it.
 */
const BANK_ROWS = 50_000;
const BOOKS = 1_197;
const PROBE_EVERY_MS = 50;

/** The multipart body, made before any probe starts: building 10 MB of it would hold this process's loop, not the service's. */
function formOf(csv: Buffer, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(csv)], { type: 'text/csv' }), 'export.csv');
  return form;
}

async function upload(client: HttpClient, source: string, form: FormData) {
  const started = performance.now();
  const res = await fetch(`${client.baseUrl}/api/v1/account/import/${source}`, { method: 'POST', body: form, headers: { cookie: client.cookie! } });
  const body = (await res.json()) as any;
  return { status: res.status, body, ms: performance.now() - started };
}

/** Runs `work` while reading the task list every PROBE_EVERY_MS and /healthz in a loop; the reads' times and the peak RSS. */
async function whileProbing<T>(service: BenchService, client: HttpClient, work: () => Promise<T>) {
  const rss = sampleRss(service.pid, 50);
  const reads: number[] = [];
  const health = probeHealth(service.url);
  let probing = true;
  const readLoop = (async () => {
    while (probing) {
      const started = performance.now();
      await client.get('/api/v1/tasks?limit=50');
      reads.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
  })();
  try {
    const result = await work();
    return { result, reads, longestHealth: await health.stop(), memory: rss.stop() };
  } finally {
    probing = false;
    await Promise.all([readLoop, health.stop()]);
  }
}

async function waitDone(client: HttpClient, id: string): Promise<any> {
  for (;;) {
    const res = await client.get(`/api/v1/account/import/${id}`);
    if (res.body.data.status === 'done' || res.body.data.status === 'failed') return res.body.data;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database, { DISABLE_RATE_LIMIT: 'true' });
  const { client } = await signUp(service.url, `bench-imports-${Date.now()}@example.com`);
  for (let i = 0; i < 30; i++) await client.post('/api/v1/tasks', { title: `Task ${i}`, timebox: 30 });
  const account = await client.post('/api/v1/accounts', { name: 'Giro', type: 'checking', balance: 0, currency: 'EUR' });
  const accountId = account.body.data.id as string;
  const mapping = JSON.stringify({ date: 'date', amount: 'amount', description: 'text' });

  const rows: (string | number)[][] = [];
  const bombs: [string, Buffer][] = [
    ['10 MB: header + 5,000,000 lines', Buffer.from(`date,amount,text\n${'1\n'.repeat(5_000_000)}`)],
    ['header of 1,000,000 columns', Buffer.from(`${'a,'.repeat(1_000_000)}a\n1\n`)],
  ];
  for (const [label, file] of bombs) {
    const form = formOf(file, { accountId, mapping });
    const probed = await whileProbing(service, client, () => upload(client, 'transactions', form));
    rows.push([label, probed.result.status, round(probed.result.ms, 0), round(probed.memory.peak / MB, 0), round(probed.longestHealth, 0), String(probed.result.body.error?.message ?? '').slice(0, 50)]);
  }
  console.log('');
  printTable(['upload', 'status', 'answered in ms', 'peak RSS MB', 'longest /healthz ms', 'reason'], rows);

  const quiet = await whileProbing(service, client, () => new Promise((r) => setTimeout(r, 5_000)));
  const day = (i: number) => new Date(Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000).toISOString().slice(0, 10);
  const bank = Buffer.from(`date,amount,text\n${Array.from({ length: BANK_ROWS }, (_, i) => `${day(i)},-${(1 + (i % 50)).toFixed(2)},Payment ${i}`).join('\n')}\n`);
  const books = Buffer.from(
    `Title,Author,Number of Pages,Date Read,Exclusive Shelf\n${Array.from({ length: BOOKS }, (_, i) => `Book ${i},Author ${i % 300},${100 + (i % 400)},${i % 3 ? `2024/${String((i % 12) + 1).padStart(2, '0')}/${String((i % 28) + 1).padStart(2, '0')}` : ''},${i % 3 ? 'read' : 'to-read'}`).join('\n')}\n`,
  );
  const imports: (string | number)[][] = [];
  for (const [label, source, file, fields] of [
    [`${BANK_ROWS} bank rows`, 'transactions', bank, { accountId, mapping }],
    [`${BOOKS} Goodreads books`, 'goodreads', books, {}],
  ] as const) {
    const form = formOf(file, fields);
    const probed = await whileProbing(service, client, async () => {
      const started = performance.now();
      const posted = await upload(client, source, form);
      if (posted.status !== 202) throw new Error(`${label}: ${posted.status} ${JSON.stringify(posted.body)}`);
      const done = await waitDone(client, posted.body.data.id);
      return { done, seconds: (performance.now() - started) / 1000, uploadMs: posted.ms };
    });
    const { done, seconds, uploadMs } = probed.result;
    imports.push([label, done.status, done.created, round(uploadMs, 0), round(seconds, 1), round(percentile(probed.reads, 50), 1), round(percentile(probed.reads, 99), 1), round(probed.longestHealth, 0), round(probed.memory.peak / MB, 0)]);
  }
  console.log('');
  console.log(`task-list read with no import running: p50 ${round(percentile(quiet.reads, 50), 1)} ms, p99 ${round(percentile(quiet.reads, 99), 1)} ms (${quiet.reads.length} reads)`);
  printTable(['import', 'status', 'created', 'upload answered ms', 'to done s', 'read p50 ms', 'read p99 ms', 'longest /healthz ms', 'peak RSS MB'], imports);
  return { scenario: 'imports', measuredAt: new Date().toISOString(), bombs: rows, quietReads: { p50: percentile(quiet.reads, 50), p99: percentile(quiet.reads, 99) }, imports };
}

const scenario: Scenario = {
  name: 'imports',
  description: 'issue 23 items 1, 2, 21: upload bombs refused while read; 50,000 bank rows and 1,197 books imported in chunks, reads meanwhile',
  run,
};
export default scenario;
