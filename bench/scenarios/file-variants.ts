import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { cpuMsPerRequest } from '../lib/cpu-per-request.js';
import { MB, readCpuSeconds, readMemory, sampleRss } from '../lib/memory.js';
import { findProfile, printProfileSummary, summariseProfile, type ProfileSummary } from '../lib/cpu-profile.js';
import { printTable, resultsDir, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';
import { RESIZED_VARIANTS } from '../../src/files/file-kinds.js';
import { VARIANT_JOB_CONCURRENCY } from '../../src/files/files-runtime.js';
import { renderVariant, renderVariants } from '../../src/files/image-processing.js';

/** Targets of issue 5: sharp alone / service time at least this; the service's RSS under this. */
const TARGET_RATIO = 0.8;
const TARGET_RSS_MB = 400;
const UPLOADS = 10;
/** The job's concurrency (src/files/variant.jobs.ts); sharp alone gets the same parallelism. */
const PARALLEL_FILES = VARIANT_JOB_CONCURRENCY;
/**
 * Small next to the work (about a second for the ten images), so waiting adds little to the service's
 * time, yet not so frequent that the polls (a list query each) take CPU from the work they wait for.
 */
const POLL_MS = 50;

/** A 4000×3000 photo-like JPEG: smooth noise scaled up, different per seed, about 1-3 MB. */
async function photo(seed: number): Promise<Buffer> {
  const small = await sharp({ create: { width: 200, height: 150, channels: 3, background: { r: (seed * 40) % 255, g: 120, b: 200 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png()
    .toBuffer();
  return sharp(small).resize(4000, 3000, { kernel: 'cubic' }).jpeg({ quality: 90 }).toBuffer();
}

async function uploadFile(client: HttpClient, data: Buffer, name: string): Promise<string> {
  const form = new FormData();
  form.append('fileType', 'image');
  form.append('file', new Blob([new Uint8Array(data)], { type: "image/jpeg" }), name);
  const res = await fetch(`${client.baseUrl}/api/v1/files/upload`, { method: 'POST', body: form, headers: { cookie: client.cookie! } });
  const body = (await res.json()) as any;
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  return body.data.id;
}

/**
 * Polls the file list (one query every POLL_MS) and, as a client showing a gallery would, loads each
 * file's four variants (URL, then bytes) as soon as that file's variants are all ready, while the
 * others are still being made. Answers when the last file was seen ready; resolves once every
 * variant of every file was fetched.
 */
async function untilFetchable(client: HttpClient, fileIds: string[], onReady: () => void = () => undefined, timeoutMs = 300_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const waiting = new Set(fileIds);
  const fetches: Promise<void>[] = [];
  const fetchVariants = (fileId: string) =>
    Promise.all(
      RESIZED_VARIANTS.map(async (variant) => {
        const url = await client.get(`/api/v1/files/${fileId}/url?variant=${variant}`);
        if (url.status !== 200) throw new Error(`url of ${variant} answered ${url.status}`);
        const parsed = new URL(url.body.data.url);
        const blob = await fetch(client.baseUrl + parsed.pathname + parsed.search);
        if (blob.status !== 200) throw new Error(`variant ${variant} answered ${blob.status}`);
        await blob.arrayBuffer();
      }),
    ).then(() => undefined);
  for (;;) {
    const res = await client.graphql(`{ files(limit: 100) { items { id variants { variant status } } } }`);
    const files = (res.body.data?.files?.items ?? []) as { id: string; variants: { variant: string; status: string }[] }[];
    for (const file of files) {
      if (!waiting.has(file.id)) continue;
      if (file.variants.some((v) => v.status === 'failed')) throw new Error('a variant failed');
      if (file.variants.filter((v) => v.status === 'ready').length < 5) continue;
      waiting.delete(file.id);
      const fetching = fetchVariants(file.id);
      fetching.catch(() => undefined); // awaited below; not an unhandled rejection meanwhile
      fetches.push(fetching);
    }
    if (!waiting.size) break;
    if (Date.now() > deadline) throw new Error(`variants not ready in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const readyAt = performance.now();
  onReady();
  await Promise.all(fetches);
  return readyAt;
}

/**
 * The same four variants with sharp and nothing else, PARALLEL_FILES files at a time, reading the same
 * bytes from files on disk as the service's job does. `mode`: `service` renders with the service's own
 * code (one decode per image, renderVariants), so the ratio measures what the service adds around
 * sharp; `per-variant` is one sharp pipeline per variant (the naive way, for reference).
 */
async function sharpAlone(paths: string[], mode: 'service' | 'per-variant'): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const queue = [...paths];
  // Written to files next to their source, as the service writes its variant blobs.
  const save = (path: string, variant: string, data: Buffer) => writeFile(`${path}.${variant}`, data);
  await Promise.all(
    Array.from({ length: PARALLEL_FILES }, async () => {
      for (let path = queue.shift(); path; path = queue.shift()) {
        if (mode === 'per-variant') {
          for (const variant of RESIZED_VARIANTS) await save(path, variant, (await renderVariant(path, 'image/jpeg', variant)).data);
          continue;
        }
        const outcomes = await renderVariants(path, 'image/jpeg', RESIZED_VARIANTS);
        await Promise.all(
          [...outcomes].map(([variant, outcome]) => {
            if (!outcome.ok) throw outcome.error;
            return save(path, variant, outcome.out.data);
          }),
        );
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

async function run(ctx: ScenarioContext) {
  const uploadDir = await mkdtemp(join(tmpdir(), 'lp-bench-uploads-'));
  ctx.defer(() => rm(uploadDir, { recursive: true, force: true }));
  const database = await ctx.database();
  const service = await ctx.startService(database, { FILE_UPLOAD_DIR: uploadDir, IMAGE_PROCESSING_MODE: 'eager' });
  ctx.log(`service pid ${service.pid} at ${service.url}`);
  const rss = sampleRss(service.pid, 50);
  const idle = readMemory(service.pid);

  ctx.log(`making ${UPLOADS} 4000×3000 JPEGs`);
  const images = await Promise.all(Array.from({ length: UPLOADS }, (_, i) => photo(i + 1)));
  const totalBytes = images.reduce((n, b) => n + b.length, 0);
  ctx.log(`images: ${round(totalBytes / MB, 1)} MB in all`);
  const sourceDir = await mkdtemp(join(tmpdir(), 'lp-bench-sources-'));
  ctx.defer(() => rm(sourceDir, { recursive: true, force: true }));
  const paths = await Promise.all(images.map(async (image, i) => {
    const path = join(sourceDir, `photo-${i}.jpg`);
    await writeFile(path, image);
    return path;
  }));
  const user = await signUp(service.url, `bench-files-${Date.now()}@example.com`);

  // Warm-up (first sharp load, first job): one image through both paths, not measured.
  await untilFetchable(user.client, [await uploadFile(user.client, images[0]!, 'warm-up.jpg')]);
  await sharpAlone([paths[0]!], 'service');
  await sharpAlone([paths[0]!], 'per-variant');

  // Sharp alone runs before and after the service and counts as the mean of both, so a machine
  // whose load changes during the run does not favour either side.
  ctx.log('sharp alone (first of two runs)');
  const aloneBefore = await sharpAlone(paths, 'service');

  ctx.log('service: 10 uploads, until every variant is fetchable');
  // The service's CPU (every thread, libvips included) per phase: steadier than times on a busy machine.
  const cpuAt = () => readCpuSeconds(service.pid) ?? NaN;
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  const windows: Record<'uploads' | 'variants' | 'fetches', { start: number; end: number }> = {
    uploads: { start: nowUs(), end: 0 },
    variants: { start: 0, end: 0 },
    fetches: { start: 0, end: 0 },
  };
  const cpu0 = cpuAt();
  const t0 = performance.now();
  const ids = await Promise.all(images.map((image, i) => uploadFile(user.client, image, `photo-${i}.jpg`)));
  const uploadedMs = performance.now() - t0;
  const cpuUploaded = cpuAt();
  windows.uploads.end = windows.variants.start = nowUs();
  let cpuReady = NaN;
  const readyAt = await untilFetchable(user.client, ids, () => {
    cpuReady = cpuAt();
    windows.variants.end = windows.fetches.start = nowUs();
  });
  const cpuFetched = cpuAt();
  windows.fetches.end = nowUs();
  const serviceMs = performance.now() - t0;
  const readyMs = readyAt - t0;
  const serviceRss = rss.stop();
  // Where the time went: from each upload's row to its last variant's row (the job's own work).
  const spans = await user.client.graphql(`{ files(limit: 100) { items { id createdAt variants { createdAt } } } }`);
  const measured = (spans.body.data.files.items as { id: string; createdAt: string; variants: { createdAt: string }[] }[]).filter((f) => ids.includes(f.id));
  const lastVariantAt = (f: (typeof measured)[number]) => Math.max(...f.variants.map((v) => Date.parse(v.createdAt)));
  const firstUploadAt = Math.min(...measured.map((f) => Date.parse(f.createdAt)));
  const jobSpanMs = Math.max(...measured.map(lastVariantAt)) - firstUploadAt;
  ctx.log(`first upload stored → last variant stored: ${jobSpanMs} ms`);

  ctx.log('sharp alone: the same variants in this process, from the same bytes on disk');
  const aloneAfter = await sharpAlone(paths, 'service');
  const aloneMs = (aloneBefore.ms + aloneAfter.ms) / 2;
  const aloneCpuMs = (aloneBefore.cpuMs + aloneAfter.cpuMs) / 2;
  ctx.log(`sharp alone: ${round(aloneBefore.ms, 0)} ms before the service, ${round(aloneAfter.ms, 0)} ms after`);
  const { ms: perVariantMs } = await sharpAlone(paths, 'per-variant');

  // A 10 MB upload (a JPEG padded after its end marker to 10,000,000 bytes), RSS sampled throughout.
  const big = Buffer.concat([images[1]!, Buffer.alloc(10_000_000 - images[1]!.length)]);
  const bigRss = sampleRss(service.pid, 20);
  const before = readMemory(service.pid);
  const tBig = performance.now();
  const bigId = await uploadFile(user.client, big, 'ten-megabytes.jpg');
  const bigUploadMs = performance.now() - tBig;
  await untilFetchable(user.client, [bigId]);
  const bigStats = bigRss.stop();
  const final = readMemory(service.pid);

  // What one request of each kind the scenario makes costs the service (100 in a row, CPU of every
  // thread): the fixed cost around the pixels.
  const handedOut = new URL((await user.client.get(`/api/v1/files/${ids[0]!}/url?variant=small`)).body.data.url);
  const perRequest = await cpuMsPerRequest(service.pid, [
    ['GET /files/:id/content (signed variant bytes)', async () => (await fetch(user.client.baseUrl + handedOut.pathname + handedOut.search)).arrayBuffer()],
    ['GET /files/:id/url?variant=small', () => user.client.get(`/api/v1/files/${ids[0]!}/url?variant=small`)],
    ['GraphQL poll files { variants }', () => user.client.graphql(`{ files(limit: 100) { items { id variants { variant status } } } }`)],
    ['GET /healthz (floor)', async () => (await fetch(`${user.client.baseUrl}/healthz`)).arrayBuffer()],
  ]);
  const ratio = round(aloneMs / serviceMs, 2);
  const serviceCpu = {
    uploads: round((cpuUploaded - cpu0) * 1000, 0),
    variants: round((cpuReady - cpuUploaded) * 1000, 0),
    fetches: round((cpuFetched - cpuReady) * 1000, 0),
    total: round((cpuFetched - cpu0) * 1000, 0),
  };
  const cpuRatio = round(aloneCpuMs / serviceCpu.total, 2);
  const mb = (b: number | null | undefined) => (b == null ? null : round(b / MB, 1));
  const peakRssMb = mb(Math.max(serviceRss.peak, bigStats.peak))!;
  console.log('');
  printTable(
    ['what', 'ms', 'per image ms'],
    [
      ['service: 10 uploads answered', round(uploadedMs, 0), round(uploadedMs / UPLOADS, 0)],
      ['service: first upload → last variant stored', round(jobSpanMs, 0), round(jobSpanMs / UPLOADS, 0)],
      ['service: until all variants seen ready', round(readyMs, 0), round(readyMs / UPLOADS, 0)],
      ['service: until all variants fetchable', round(serviceMs, 0), round(serviceMs / UPLOADS, 0)],
      ['sharp alone: same variants, same code (mean of 2)', round(aloneMs, 0), round(aloneMs / UPLOADS, 0)],
      ['sharp alone: one pipeline per variant', round(perVariantMs, 0), round(perVariantMs / UPLOADS, 0)],
      ['service: one 10 MB upload answered', round(bigUploadMs, 0), '-'],
    ],
  );
  console.log('');
  printTable(
    ['CPU (all threads)', 'ms', 'per image ms'],
    [
      ['service: 10 uploads', serviceCpu.uploads, round(serviceCpu.uploads / UPLOADS, 0)],
      ['service: uploads answered → all variants seen ready', serviceCpu.variants, round(serviceCpu.variants / UPLOADS, 0)],
      ['service: → the last of 40 URLs + 40 fetches', serviceCpu.fetches, round(serviceCpu.fetches / UPLOADS, 0)],
      ['service: all', serviceCpu.total, round(serviceCpu.total / UPLOADS, 0)],
      ['sharp alone: same variants, same code (mean of 2)', round(aloneCpuMs, 0), round(aloneCpuMs / UPLOADS, 0)],
    ],
  );
  console.log('');
  printTable(['service CPU per request', 'ms'], Object.entries(perRequest));
  const met = { ratio: ratio >= TARGET_RATIO, rss: peakRssMb < TARGET_RSS_MB };
  console.log('');
  console.log(`ratio sharp alone / service ${ratio} (target >= ${TARGET_RATIO}): ${met.ratio ? 'met' : 'MISSED'}`);
  console.log(`(against one sharp pipeline per variant: ${round(perVariantMs / serviceMs, 2)}; CPU ratio sharp alone / service ${cpuRatio}; load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  console.log(
    `service peak RSS ${peakRssMb} MB (idle ${mb(idle?.rss)} MB; before the 10 MB upload ${mb(before?.rss)} MB, peak during it ${mb(bigStats.peak)} MB; high-water ${mb(final?.hwm)} MB; target < ${TARGET_RSS_MB} MB): ${met.rss ? 'met' : 'MISSED'}`,
  );
  let profile: Record<string, ProfileSummary> | undefined;
  if (ctx.profile) {
    await service.stop(); // --cpu-prof writes the profile on exit
    const file = await findProfile(join(resultsDir, 'profiles'), service.pid);
    if (!file) ctx.log('WARNING: the service wrote no CPU profile');
    else {
      profile = {};
      for (const [phase, window] of Object.entries(windows)) {
        profile[phase] = await summariseProfile(file, [window]);
        printProfileSummary(`service main thread during ${phase} (libvips threads not sampled)`, profile[phase]!);
      }
    }
  }
  return {
    scenario: 'file-variants',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: (await import('node:os')).cpus().length },
    images: { count: UPLOADS, width: 4000, height: 3000, totalMb: round(totalBytes / MB, 1) },
    timesMs: { serviceUploadsAnswered: round(uploadedMs, 0), firstUploadToLastVariant: jobSpanMs, serviceAllVariantsReady: round(readyMs, 0), serviceAllVariantsFetchable: round(serviceMs, 0), sharpAlone: round(aloneMs, 0), sharpAloneRuns: [round(aloneBefore.ms, 0), round(aloneAfter.ms, 0)], sharpAlonePerVariant: round(perVariantMs, 0), tenMbUpload: round(bigUploadMs, 0) },
    targets: { ratio: TARGET_RATIO, rssMb: TARGET_RSS_MB, met },
    summary: { ratio, ratioPerVariantPipelines: round(perVariantMs / serviceMs, 2), cpuRatio, peakRssMb },
    cpuMs: { service: serviceCpu, sharpAlone: round(aloneCpuMs, 0), perRequest },
    profile: profile && { windowsUs: windows, ...profile },
    serviceRssMb: { idle: mb(idle?.rss), peakDuringUploads: mb(serviceRss.peak), beforeTenMb: mb(before?.rss), peakDuringTenMb: mb(bigStats.peak), highWater: mb(final?.hwm) },
  };
}

const scenario: Scenario = {
  name: 'file-variants',
  description: 'ten 4000×3000 JPEG uploads until every variant is fetchable, against sharp alone; a 10 MB upload',
  run,
};
export default scenario;
