import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from './processes.js';

/** Prints rows as an aligned text table; numbers are right-aligned. */
export function printTable(headers: string[], rows: (string | number)[][]): void {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const numeric = headers.map((_, i) => rows.every((row) => typeof row[i] === 'number' || /^[\d.,]+( ?[a-zA-Z%×]+)?$/.test(String(row[i] ?? ''))));
  const line = (row: string[]) => row.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row));
}

export const resultsDir = join(projectRoot, 'bench', 'results');

/** Writes a scenario's results as `bench/results/<name>.json`; returns the path. */
export async function writeResults(name: string, results: unknown): Promise<string> {
  await mkdir(resultsDir, { recursive: true });
  const path = join(resultsDir, `${name}.json`);
  await writeFile(path, JSON.stringify(results, null, 2) + '\n');
  return path;
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** The p-th percentile (0-100) of `values`, unsorted (nearest rank; 0 for none). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
