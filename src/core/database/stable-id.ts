import { createHash } from 'node:crypto';

/**
 * A UUID (version 5 layout) derived from a name, the same on every deployment: seeded reference rows
 * (global exercises, global journal questions) keep their id, so seeding again inserts nothing twice.
 */
export function stableId(name: string): string {
  const hex = createHash('sha1').update(`life-planner:${name}`).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
