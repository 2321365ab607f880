/** Where a checked-in generated file first departs from a fresh generation, for the failure message. */
export function firstDifference(committed: string, fresh: string): string {
  if (!committed) return 'The checked-in file is missing.';
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `First difference at line ${at + 1}:\n  checked in: ${JSON.stringify(a[at] ?? '<end of file>')}\n  generated:  ${JSON.stringify(b[at] ?? '<end of file>')}`;
}
