// Prints the slowest test files of a vitest JSON report, so each CI run tells where its time went.
import { readFileSync } from 'node:fs';

const [path, count = '10'] = process.argv.slice(2);
const report = JSON.parse(readFileSync(path, 'utf8'));
const root = process.cwd() + '/';
const files = report.testResults
  .map((file) => ({ name: file.name.replace(root, ''), ms: Math.round(file.endTime - file.startTime), status: file.status }))
  .sort((a, b) => b.ms - a.ms);
console.log(`--- slowest ${count} of ${files.length} test files (ms; full report: ${path})`);
for (const file of files.slice(0, Number(count))) console.log(`${String(file.ms).padStart(8)}  ${file.name}${file.status === 'passed' ? '' : `  (${file.status})`}`);
