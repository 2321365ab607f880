import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MB, readMemory, sampleRss } from '../lib/memory.js';
import { percentile, printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';
import { RESIZED_VARIANTS } from '../../src/files/file-kinds.js';

/**
 * Issue 23 item 8: sign-in while images are turned into variants. Argon2 (password hashing) and
 * libvips (sharp) both run on libuv's thread pool; the audit saw sign-in take up to 6.5 s during a burst
 * of large images. Here a burst of large PNGs (each just under the decoded-memory ceiling, plus
 * 16-bit ones over it, refused fast) is uploaded while two clients sign in back to back; sign-in latency
 * during the burst is compared with the same sign-ins on a quiet service, and RSS is read before, at its
 * peak, and after the burst has settled (does the memory come back?).
 */
const LOGINS_IN_FLIGHT = 2;
/** The images are uploaded this many times over: a burst of ~10 s and ~600 sign-ins, so the p99 is no single outlier. */
const ROUNDS = 3;
const QUIET_MS = 8_000;
const SETTLE_MS = 30_000;

/** RSS of the service's child processes (the image render process), summed; 0 when it has none. */
function childrenRss(pid: number): number {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return children.reduce((sum, child) => sum + (readMemory(Number(child))?.rss ?? 0), 0);
  } catch {
    return 0;
  }
}

/** A noisy RGB PNG of `width`×`height` (noise keeps it from compressing to nothing). */
async function png(width: number, height: number, seed: number, sixteenBit = false): Promise<Buffer> {
  const small = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: (seed * 53) % 255, g: 90, b: 160 }, noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .png()
    .toBuffer();
  const big = sharp(small).resize(width, height, { kernel: 'nearest' });
  return (sixteenBit ? big.toColourspace('rgb16') : big).png({ compressionLevel: 1 }).toBuffer();
}

async function upload(client: HttpClient, data: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('fileType', 'image');
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/png' }), name);
  const res = await fetch(`${client.baseUrl}/api/v1/files/upload`, { method: 'POST', body: form, headers: { cookie: client.cookie! } });
  const body = (await res.json()) as any;
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.data.id;
}

/** Resolves once no resized variant of any file is still to be made (each is ready or failed). */
async function variantsSettled(client: HttpClient, ids: string[]): Promise<{ ready: number; failed: number }> {
  for (;;) {
    let ready = 0;
    let failed = 0;
    let waiting = 0;
    for (const id of ids) {
      const res = await client.get(`/api/v1/files/${id}`);
      const resized = (res.body.data.variants ?? []).filter((v: any) => v.variant !== 'original');
      waiting += RESIZED_VARIANTS.length - resized.length;
      for (const v of resized) {
        if (v.status === 'ready') ready++;
        else if (v.status === 'failed') failed++;
        else waiting++;
      }
    }
    if (!waiting) return { ready, failed };
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Signs in back to back with LOGINS_IN_FLIGHT clients until `until` resolves; each sign-in's time. */
async function signInsDuring(baseUrl: string, email: string, password: string, until: Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  let going = true;
  void until.finally(() => (going = false));
  await Promise.all(
    Array.from({ length: LOGINS_IN_FLIGHT }, async () => {
      while (going) {
        const started = performance.now();
        const res = await fetch(`${baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
        times.push(performance.now() - started);
      }
    }),
  );
  return times;
}

async function run(ctx: ScenarioContext) {
  const database = await ctx.database();
  const service = await ctx.startService(database, { DISABLE_RATE_LIMIT: 'true' });
  const owner = await signUp(service.url, `bench-images-${Date.now()}@example.com`);
  const signer = await signUp(service.url, `bench-signin-${Date.now()}@example.com`);

  ctx.log('making the images');
  // 6000×4000 RGB 8-bit: 72 MB decoded; 8000×7000: 168 MB (both under the 256 MB ceiling);
  // 16-bit 8000×6000: 288 MB, refused before decoding.
  const large = await Promise.all([...Array.from({ length: 12 }, (_, i) => png(6000, 4000, i)), ...Array.from({ length: 4 }, (_, i) => png(8000, 7000, 40 + i))]);
  const deep = await Promise.all(Array.from({ length: 2 }, (_, i) => png(8000, 6000, 20 + i, true)));
  const burst = [...large, ...deep];
  const megabytes = burst.reduce((sum, b) => sum + b.length, 0) / MB;

  const quietTimes = await signInsDuring(service.url, signer.email, signer.password, new Promise((r) => setTimeout(r, QUIET_MS)));
  const before = readMemory(service.pid)!;
  const rss = sampleRss(service.pid, 50);
  let childPeak = 0;
  const childSampler = setInterval(() => (childPeak = Math.max(childPeak, childrenRss(service.pid))), 50);
  const started = performance.now();
  const work = (async () => {
    const ids: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, data] of burst.entries()) ids.push(await upload(owner.client, data, `burst-${round}-${i}.png`));
    }
    const settled = await variantsSettled(owner.client, ids);
    return { ids, settled, seconds: (performance.now() - started) / 1000 };
  })();
  const burstTimes = await signInsDuring(service.url, signer.email, signer.password, work);
  const { settled, seconds } = await work;
  const peak = rss.stop().peak;
  clearInterval(childSampler);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const after = readMemory(service.pid)!;
  const childAfter = childrenRss(service.pid);

  const row = (label: string, times: number[]) => [label, times.length, round(percentile(times, 50), 0), round(percentile(times, 95), 0), round(percentile(times, 99), 0), round(Math.max(...times), 0)];
  console.log('');
  printTable(['sign-ins', 'count', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'], [row('quiet service', quietTimes), row(`during the burst (${seconds.toFixed(1)} s)`, burstTimes)]);
  console.log(`burst: ${burst.length} PNGs ${ROUNDS} times, ${(megabytes * ROUNDS).toFixed(0)} MB uploaded; variants ready ${settled.ready}, failed ${settled.failed} (the ${deep.length * ROUNDS} 16-bit ones are over the ceiling)`);
  console.log(`RSS: before ${round(before.rss / MB, 0)} MB, peak ${round(peak / MB, 0)} MB, ${SETTLE_MS / 1000} s after ${round(after.rss / MB, 0)} MB; the image render process: peak ${round(childPeak / MB, 0)} MB, ${SETTLE_MS / 1000} s after ${round(childAfter / MB, 0)} MB`);
  return {
    scenario: 'image-burst',
    measuredAt: new Date().toISOString(),
    signIn: { quiet: quietTimes, burst: burstTimes },
    p99: { quiet: percentile(quietTimes, 99), burst: percentile(burstTimes, 99) },
    burstSeconds: seconds,
    variants: settled,
    rssMb: { before: before.rss / MB, peak: peak / MB, after: after.rss / MB, renderProcessPeak: childPeak / MB, renderProcessAfter: childAfter / MB },
  };
}

const scenario: Scenario = {
  name: 'image-burst',
  description: 'issue 23 item 8: sign-in latency and RSS while a burst of large PNGs is turned into variants',
  run,
};
export default scenario;
