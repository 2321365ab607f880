import autocannon from 'autocannon';
import { readCpuSeconds, sampleRss } from './memory.js';

export interface LoadSettings {
  /** Measured seconds per target. */
  durationS: number;
  /** Unmeasured seconds before each measurement (JIT, pools, caches). */
  warmupS: number;
  connections: number;
}

export interface LoadTarget {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  name: string;
  method: string;
  url: string;
  connections: number;
  durationS: number;
  /** Mean requests per second over the measured run. */
  rps: number;
  requests: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  /** Peak and mean RSS of each sampled process during the measured run, in bytes. */
  rss: Record<string, { peak: number; mean: number; samples: number }>;
  /** The measured run on the monotonic clock (µs), the clock V8's CPU profiles use: to cut profiles. */
  windowUs: { start: number; end: number };
  /** CPU time each sampled process spent per answered request, in milliseconds (Linux only). */
  cpuMsPerRequest: Record<string, number | null>;
}

/**
 * Loads one target with autocannon: a warm-up run that is thrown away, then the measured run, while
 * the RSS of the given processes is sampled.
 */
export async function measure(target: LoadTarget, settings: LoadSettings, sampled: Record<string, number> = {}): Promise<LoadResult> {
  const options = {
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: settings.connections,
    timeout: 30,
  };
  if (settings.warmupS > 0) await autocannon({ ...options, duration: settings.warmupS });
  const samplers = Object.entries(sampled).map(([name, pid]) => [name, pid, sampleRss(pid), readCpuSeconds(pid)] as const);
  const start = Number(process.hrtime.bigint() / 1000n);
  const result = await autocannon({ ...options, duration: settings.durationS, title: target.name });
  const end = Number(process.hrtime.bigint() / 1000n);
  const rss = Object.fromEntries(samplers.map(([name, , sampler]) => [name, sampler.stop()]));
  const cpuMsPerRequest = Object.fromEntries(
    samplers.map(([name, pid, , cpuBefore]) => {
      const cpuAfter = readCpuSeconds(pid);
      const answered = result.requests.total;
      return [name, cpuBefore !== null && cpuAfter !== null && answered ? ((cpuAfter - cpuBefore) * 1000) / answered : null];
    }),
  );
  return {
    name: target.name,
    method: options.method,
    url: target.url,
    connections: settings.connections,
    durationS: result.duration,
    rps: result.requests.average,
    requests: result.requests.total,
    latencyMs: {
      mean: result.latency.average,
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    rss,
    windowUs: { start, end },
    cpuMsPerRequest,
  };
}
