/** Candidates listed when a name fits several of the person's records or none. */
export const CANDIDATES_SHOWN = 10;

export interface NamedRecord {
  id: string;
  name: string;
}

export type NameMatch<T> = { found: T } | { found: null; candidates: T[] };

const norm = (s: string) => s.trim().toLocaleLowerCase().replace(/\s+/g, ' ');

/**
 * The one record `name` means among the person's own `records`: an exact match (any case), else the
 * only record whose name starts with it word by word ("bench" → "Bench Press"), else the only one that
 * contains it. Several or none: no match, with the candidates (the closest first) to offer instead.
 */
export function matchName<T extends NamedRecord>(records: readonly T[], name: string): NameMatch<T> {
  const wanted = norm(name);
  const exact = records.filter((r) => norm(r.name) === wanted);
  if (exact.length === 1) return { found: exact[0]! };
  if (exact.length > 1) return { found: null, candidates: exact.slice(0, CANDIDATES_SHOWN) };
  const starts = records.filter((r) => norm(r.name).startsWith(`${wanted} `) || norm(r.name).startsWith(wanted));
  if (starts.length === 1) return { found: starts[0]! };
  const contains = starts.length ? starts : records.filter((r) => norm(r.name).includes(wanted));
  if (contains.length === 1) return { found: contains[0]! };
  return { found: null, candidates: (contains.length ? contains : records).slice(0, CANDIDATES_SHOWN) };
}

/** What people call the catalog's exercises (the catalog names are the long forms). */
export const EXERCISE_ALIASES: Readonly<Record<string, string>> = {
  bench: 'Bench Press',
  'bench press': 'Bench Press',
  bp: 'Bench Press',
  squat: 'Barbell Back Squat',
  squats: 'Barbell Back Squat',
  'back squat': 'Barbell Back Squat',
  deadlifts: 'Deadlift',
  dl: 'Deadlift',
  rdl: 'Romanian Deadlift',
  rdls: 'Romanian Deadlift',
  ohp: 'Overhead Press',
  'overhead press': 'Overhead Press',
  press: 'Overhead Press',
  'pull ups': 'Pull-Up',
  'pull-ups': 'Pull-Up',
  pullups: 'Pull-Up',
  'pull up': 'Pull-Up',
  'chin ups': 'Chin-Up',
  'chin-ups': 'Chin-Up',
  chinups: 'Chin-Up',
  'push ups': 'Push-Up',
  'push-ups': 'Push-Up',
  pushups: 'Push-Up',
  dips: 'Dip',
  rows: 'Barbell Row',
  row: 'Barbell Row',
  'barbell rows': 'Barbell Row',
  curls: 'Barbell Curl',
  curl: 'Barbell Curl',
  'hammer curls': 'Hammer Curl',
  pulldown: 'Lat Pulldown',
  pulldowns: 'Lat Pulldown',
  'lat pulldowns': 'Lat Pulldown',
  lunges: 'Walking Lunge',
  'leg press': 'Leg Press',
  'hip thrusts': 'Hip Thrust',
  'calf raises': 'Standing Calf Raise',
  'lateral raises': 'Lateral Raise',
  'face pulls': 'Face Pull',
  pushdowns: 'Triceps Pushdown',
  'skull crushers': 'Skull Crusher',
  'leg curls': 'Leg Curl',
  'leg extensions': 'Leg Extension',
};
