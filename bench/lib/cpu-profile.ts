import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A V8 `.cpuprofile` (what `node --cpu-prof` writes). */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where time goes, grouped so the answer reads as layers of the service. */
const BUCKETS: [RegExp, string][] = [
  [/^(@mikro-orm\/|knex$|tarn$)/, 'MikroORM (+knex)'],
  [/^(pg|pg-protocol|pg-types|pg-pool|postgres-\w+|pg-connection-string)$/, 'pg driver'],
  [/^(graphql|@graphql-tools\/.*|graphql-scalars|dataloader)$/, 'GraphQL execution (graphql-js)'],
  [/^(type-graphql|class-validator|class-transformer|reflect-metadata)$/, 'TypeGraphQL'],
  [/^(@apollo\/.*|@as-integrations\/.*)$/, 'Apollo Server'],
  [/^(sofa-api|fets|@whatwg-node\/.*)$/, 'Sofa + fetch adapter'],
  [/^app:rest$/, 'REST edge (rest/*)'],
  [/^(express|router|body-parser|cookie-parser|cookie|raw-body|on-finished|finalhandler|send|express-rate-limit|qs|type-is|content-type|accepts|negotiator|mime-types)$/, 'Express + middleware'],
  [/^(pino|pino-http|pino-std-serializers|sonic-boom|thread-stream|fast-redact|quick-format-unescaped)$/, 'logging (pino)'],
  [/^jose$/, 'JWT (jose)'],
  [/^app:src$/, 'app code (src/*)'],
  [/^tsx$/, 'tsx loader'],
  [/^\(gc\)$/, 'garbage collection'],
  [/^\(idle\)$/, 'idle'],
];

function packageOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return '(gc)';
  if (functionName === '(idle)') return '(idle)';
  if (!url) return '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node-core';
  const app = /\/(src|rest|bench|test)\//.exec(url);
  return app ? `app:${app[1]}` : url;
}

function bucketOf(pkg: string): string {
  for (const [pattern, name] of BUCKETS) if (pattern.test(pkg)) return name;
  if (pkg === 'node-core' || pkg === '(native)') return 'Node core + native (http, streams, promises, async hooks)';
  return `other: ${pkg}`;
}

export interface ProfileSummary {
  file: string;
  /** Sampled milliseconds in the windows (idle included). */
  totalMs: number;
  busyMs: number;
  /** Self time per layer, % of busy time. */
  selfByLayer: Record<string, number>;
  /** Time with the layer anywhere on the stack, % of busy time (layers nest, so these overlap). */
  inclusiveByLayer: Record<string, number>;
  /** Hottest functions by self time, % of busy time. */
  topFunctions: { fn: string; pct: number }[];
}

/** The main-thread profile a process with this pid wrote into `dir` (`CPU.<date>.<time>.<pid>.0.<n>.cpuprofile`). */
export async function findProfile(dir: string, pid: number): Promise<string | null> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => new RegExp(`\\.${pid}\\.0\\.\\d+\\.cpuprofile$`).test(f));
  return files.length ? join(dir, files.sort().at(-1)!) : null;
}

/** Summarises the samples of a profile that fall in the given monotonic windows (µs). */
export async function summariseProfile(file: string, windows: { start: number; end: number }[]): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  let idle = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    // A sample's delta is the time since the previous one; attribute the next delta to this sample.
    const weight = profile.timeDeltas[i + 1] ?? 0;
    if (!windows.some((w) => time >= w.start && time <= w.end)) continue;
    const leaf = nodes.get(profile.samples[i]!)!;
    const leafPkg = packageOf(leaf.callFrame.url, leaf.callFrame.functionName);
    total += weight;
    if (leafPkg === '(idle)') {
      idle += weight;
      continue;
    }
    const layer = bucketOf(leafPkg);
    self.set(layer, (self.get(layer) ?? 0) + weight);
    const fn = `${leaf.callFrame.functionName || '(anonymous)'} ${leaf.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|rest)\//, '$1/')}:${leaf.callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + weight);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const frame = nodes.get(id)!.callFrame;
      const l = bucketOf(packageOf(frame.url, frame.functionName));
      if (seen.has(l)) continue;
      seen.add(l);
      inclusive.set(l, (inclusive.get(l) ?? 0) + weight);
    }
  }
  const busy = total - idle;
  const pct = (m: Map<string, number>, limit = 50) =>
    Object.fromEntries(
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, limit)
        .map(([k, v]) => [k, busy ? Math.round((v / busy) * 1000) / 10 : 0]),
    );
  return {
    file,
    totalMs: Math.round(total / 1000),
    busyMs: Math.round(busy / 1000),
    selfByLayer: pct(self),
    inclusiveByLayer: pct(inclusive),
    topFunctions: Object.entries(pct(functions, 25)).map(([fn, p]) => ({ fn, pct: p })),
  };
}

export function printProfileSummary(title: string, summary: ProfileSummary): void {
  console.log(`\n${title}: ${summary.busyMs} ms busy of ${summary.totalMs} ms sampled (${summary.file})`);
  console.log('  self time by layer (% of busy):');
  for (const [layer, p] of Object.entries(summary.selfByLayer)) if (p >= 0.5) console.log(`    ${p.toFixed(1).padStart(5)}%  ${layer}`);
  console.log('  on the stack (inclusive, overlapping):');
  for (const [layer, p] of Object.entries(summary.inclusiveByLayer)) if (p >= 1) console.log(`    ${p.toFixed(1).padStart(5)}%  ${layer}`);
  console.log('  hottest functions (self):');
  for (const { fn, pct } of summary.topFunctions.slice(0, 15)) console.log(`    ${pct.toFixed(1).padStart(5)}%  ${fn}`);
}
