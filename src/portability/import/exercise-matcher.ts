import type { Exercise } from '../../training/exercise.entity.js';

/** The last word of `exercise` names the equipment the catalog assumes when it names none. */
const IMPLIED_EQUIPMENT = new Set(['barbell']);

function words(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w)); // Curls = Curl, Press stays
}

/**
 * Matches the apps' exercise names to the user's catalog (own exercises first, then global): the same
 * words in any order, any case, accents and punctuation ignored, a plural s dropped, so "Bench Press
 * (Barbell)" is the catalog's "Bench Press" and "Curls, Hammer" is "Hammer Curl". "(Dumbbell)" and other
 * equipment stays part of the name: a dumbbell press is not the barbell one.
 */
export class ExerciseMatcher {
  private readonly byKey = new Map<string, Exercise>();

  constructor(catalog: Exercise[]) {
    for (const own of [true, false]) for (const e of catalog) if (!e.isGlobal === own) this.add(e);
  }

  static key(tokens: string[]): string {
    return [...tokens].sort().join(' ');
  }

  add(exercise: Exercise): void {
    const key = ExerciseMatcher.key(words(exercise.name));
    if (!this.byKey.has(key)) this.byKey.set(key, exercise);
  }

  /** The names known now; the returned function forgets those added since (their writes rolled back). */
  checkpoint(): () => void {
    const kept = new Map(this.byKey);
    return () => {
      this.byKey.clear();
      for (const [key, exercise] of kept) this.byKey.set(key, exercise);
    };
  }

  find(name: string): Exercise | undefined {
    const tokens = words(name);
    return this.byKey.get(ExerciseMatcher.key(tokens)) ?? this.byKey.get(ExerciseMatcher.key(tokens.filter((t) => !IMPLIED_EQUIPMENT.has(t))));
  }
}
