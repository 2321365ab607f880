import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { signUp, type HttpClient } from '../../test/support/http-client.js';
import { MB, readMemory, sampleRss } from '../lib/memory.js';
import { printTable, round } from '../lib/report.js';
import type { Scenario, ScenarioContext } from '../lib/scenario.js';
import { RESIZED_VARIANTS } from '../../src/files/file-kinds.js';
import { renderVariant } from '../../src/files/image-processing.js';

/** Targets of issue 5: sharp alone / service time at least this; the service's RSS under this. */
const TARGET_RATIO = 0.8;
const TARGET_RSS_MB = 400;
const UPLOADS = 10;
/** The job's concurrency (src/files/variant.jobs.ts); sharp alone gets the same parallelism. */
const PARALLEL_FILES = 2;

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
 * Waits until every resized variant of every file is ready (one list query every 100 ms, so polling
 * does not compete with the work it waits for), then loads each variant through its URL.
 */
async function untilFetchable(client: HttpClient, fileIds: string[], timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const wanted = new Set(fileIds);
  for (;;) {
    const res = await client.graphql(`{ files(limit: 100) { items { id variants { variant status } } } }`);
    const files = (res.body.data?.files?.items ?? []) as { id: string; variants: { variant: string; status: string }[] }[];
    const mine = files.filter((f) => wanted.has(f.id));
    if (mine.some((f) => f.variants.some((v) => v.status === 'failed'))) throw new Error('a variant failed');
    if (mine.length === wanted.size && mine.every((f) => f.variants.filter((v) => v.status === 'ready').length === 5)) break;
    if (Date.now() > deadline) throw new Error(`variants not ready in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Every variant's URL, then its bytes, as a client showing a gallery would: all at once.
  const pairs = fileIds.flatMap((fileId) => RESIZED_VARIANTS.map((variant) => [fileId, variant] as const));
  await Promise.all(
    pairs.map(async ([fileId, variant]) => {
      const url = await client.get(`/api/v1/files/${fileId}/url?variant=${variant}`);
      if (url.status !== 200) throw new Error(`url of ${variant} answered ${url.status}`);
      const parsed = new URL(url.body.data.url);
      const blob = await fetch(client.baseUrl + parsed.pathname + parsed.search);
      if (blob.status !== 200) throw new Error(`variant ${variant} answered ${blob.status}`);
      await blob.arrayBuffer();
    }),
  );
}

/** The same four variants with sharp and nothing else, PARALLEL_FILES files at a time. */
async function sharpAlone(images: Buffer[]): Promise<number> {
  const started = performance.now();
  const queue = [...images];
  await Promise.all(
    Array.from({ length: PARALLEL_FILES }, async () => {
      for (let image = queue.shift(); image; image = queue.shift()) {
        for (const variant of RESIZED_VARIANTS) await renderVariant(image, 'image/jpeg', variant);
      }
    }),
  );
  return performance.now() - started;
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
  const user = await signUp(service.url, `bench-files-${Date.now()}@example.com`);

  // Warm-up (first sharp load, first job): one image through both paths, not measured.
  await untilFetchable(user.client, [await uploadFile(user.client, images[0]!, 'warm-up.jpg')]);
  await sharpAlone([images[0]!]);

  ctx.log('service: 10 uploads, until every variant is fetchable');
  const t0 = performance.now();
  const ids = await Promise.all(images.map((image, i) => uploadFile(user.client, image, `photo-${i}.jpg`)));
  const uploadedMs = performance.now() - t0;
  await untilFetchable(user.client, ids);
  const serviceMs = performance.now() - t0;
  const serviceRss = rss.stop();
  // Where the time went: from each upload's row to its last variant's row (the job's own work).
  const spans = await user.client.graphql(`{ files(limit: 100) { items { id createdAt variants { createdAt } } } }`);
  const measured = (spans.body.data.files.items as { id: string; createdAt: string; variants: { createdAt: string }[] }[]).filter((f) => ids.includes(f.id));
  const lastVariantAt = (f: (typeof measured)[number]) => Math.max(...f.variants.map((v) => Date.parse(v.createdAt)));
  const firstUploadAt = Math.min(...measured.map((f) => Date.parse(f.createdAt)));
  const jobSpanMs = Math.max(...measured.map(lastVariantAt)) - firstUploadAt;
  ctx.log(`first upload stored → last variant stored: ${jobSpanMs} ms`);

  ctx.log('sharp alone: the same variants in this process');
  const aloneMs = await sharpAlone(images);

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

  const ratio = round(aloneMs / serviceMs, 2);
  const mb = (b: number | null | undefined) => (b == null ? null : round(b / MB, 1));
  const peakRssMb = mb(Math.max(serviceRss.peak, bigStats.peak))!;
  console.log('');
  printTable(
    ['what', 'ms', 'per image ms'],
    [
      ['service: 10 uploads answered', round(uploadedMs, 0), round(uploadedMs / UPLOADS, 0)],
      ['service: first upload → last variant stored', round(jobSpanMs, 0), round(jobSpanMs / UPLOADS, 0)],
      ['service: until all variants fetchable', round(serviceMs, 0), round(serviceMs / UPLOADS, 0)],
      ['sharp alone: same variants', round(aloneMs, 0), round(aloneMs / UPLOADS, 0)],
      ['service: one 10 MB upload answered', round(bigUploadMs, 0), '-'],
    ],
  );
  const met = { ratio: ratio >= TARGET_RATIO, rss: peakRssMb < TARGET_RSS_MB };
  console.log('');
  console.log(`ratio sharp alone / service ${ratio} (target >= ${TARGET_RATIO}): ${met.ratio ? 'met' : 'MISSED'}`);
  console.log(
    `service peak RSS ${peakRssMb} MB (idle ${mb(idle?.rss)} MB; before the 10 MB upload ${mb(before?.rss)} MB, peak during it ${mb(bigStats.peak)} MB; high-water ${mb(final?.hwm)} MB; target < ${TARGET_RSS_MB} MB): ${met.rss ? 'met' : 'MISSED'}`,
  );
  return {
    scenario: 'file-variants',
    measuredAt: new Date().toISOString(),
    machine: { node: process.version, platform: process.platform, cpus: (await import('node:os')).cpus().length },
    images: { count: UPLOADS, width: 4000, height: 3000, totalMb: round(totalBytes / MB, 1) },
    timesMs: { serviceUploadsAnswered: round(uploadedMs, 0), firstUploadToLastVariant: jobSpanMs, serviceAllVariantsFetchable: round(serviceMs, 0), sharpAlone: round(aloneMs, 0), tenMbUpload: round(bigUploadMs, 0) },
    targets: { ratio: TARGET_RATIO, rssMb: TARGET_RSS_MB, met },
    summary: { ratio, peakRssMb },
    serviceRssMb: { idle: mb(idle?.rss), peakDuringUploads: mb(serviceRss.peak), beforeTenMb: mb(before?.rss), peakDuringTenMb: mb(bigStats.peak), highWater: mb(final?.hwm) },
  };
}

const scenario: Scenario = {
  name: 'file-variants',
  description: 'ten 4000×3000 JPEG uploads until every variant is fetchable, against sharp alone; a 10 MB upload',
  run,
};
export default scenario;
