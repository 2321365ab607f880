import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface MemoryReading {
  /** Resident set size now, in bytes. */
  rss: number;
  /** The kernel's high-water mark of the RSS since the process started (Linux `VmHWM`), in bytes. */
  hwm: number | null;
}

/** Reads a process's memory from /proc/<pid>/status (Linux), else from `ps` (macOS and other Unixes). */
export function readMemory(pid: number): MemoryReading | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
      return match ? Number(match[1]) * 1024 : null;
    };
    const rss = kb('VmRSS');
    return rss === null ? null : { rss, hwm: kb('VmHWM') };
  } catch {
    try {
      const out = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      return out ? { rss: Number(out) * 1024, hwm: null } : null;
    } catch {
      return null;
    }
  }
}

export interface RssSampler {
  /** Stops sampling; returns the peak and mean RSS seen, in bytes. */
  stop(): { peak: number; mean: number; samples: number };
}

/** Samples a process's RSS every `intervalMs` until stopped. */
export function sampleRss(pid: number, intervalMs = 100): RssSampler {
  let peak = 0;
  let sum = 0;
  let samples = 0;
  const take = () => {
    const reading = readMemory(pid);
    if (!reading) return;
    peak = Math.max(peak, reading.rss);
    sum += reading.rss;
    samples++;
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { peak, mean: samples ? sum / samples : 0, samples };
    },
  };
}

export const MB = 1024 * 1024;

let clockTicks: number | undefined;

/** CPU time (user + system) a process has used so far, in seconds; null where /proc is missing. */
export function readCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return null;
  }
}
