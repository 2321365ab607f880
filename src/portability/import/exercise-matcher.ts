import type { Exercise } from '../../training/exercise.entity.js';

/**
 * Equipment the catalog assumes when a name gives none: Strong and Hevy write it in parentheses
 * ("Bench Press (Barbell)", "Pull Up (Bodyweight)"), the catalog only where it tells two lifts apart.
 */
const IMPLIED_EQUIPMENT = new Set(['barbell', 'bodyweight']);

/**
 * Strong's and Hevy's names (in their word-set form, see `words`) for catalog exercises whose own name
 * has other words. Only the same movement: an assisted pull-up or a Smith-machine squat is not here and
 * becomes the user's own exercise. Keyed as `find` keys a name, so "Squat (Barbell)" and "Barbell
 * Squat" are one entry.
 */
export const APP_NAMES: Record<string, string> = {
  'Squat (Barbell)': 'Barbell Back Squat',
  'Back Squat (Barbell)': 'Barbell Back Squat',
  'High Bar Squat (Barbell)': 'Barbell Back Squat',
  'Front Squat (Barbell)': 'Front Squat',
  'Deadlift (Barbell)': 'Deadlift',
  'Conventional Deadlift (Barbell)': 'Deadlift',
  'Sumo Deadlift (Barbell)': 'Sumo Deadlift',
  'Deadlift (Trap bar)': 'Trap Bar Deadlift',
  'Trap Bar Deadlift': 'Trap Bar Deadlift',
  'Romanian Deadlift (Barbell)': 'Romanian Deadlift',
  'Romanian Deadlift (Dumbbell)': 'Romanian Deadlift',
  'Stiff Leg Deadlift (Barbell)': 'Stiff-Leg Deadlift',
  'Straight Leg Deadlift (Barbell)': 'Stiff-Leg Deadlift',
  'Bench Press (Barbell)': 'Bench Press',
  'Incline Bench Press (Barbell)': 'Incline Bench Press',
  'Decline Bench Press (Barbell)': 'Decline Bench Press',
  'Close Grip Bench Press (Barbell)': 'Close-Grip Bench Press',
  'Bench Press - Close Grip (Barbell)': 'Close-Grip Bench Press',
  'Bench Press (Dumbbell)': 'Dumbbell Bench Press',
  'Incline Bench Press (Dumbbell)': 'Incline Dumbbell Press',
  'Incline Press (Dumbbell)': 'Incline Dumbbell Press',
  'Chest Press (Machine)': 'Machine Chest Press',
  'Chest Fly (Dumbbell)': 'Dumbbell Fly',
  'Fly (Dumbbell)': 'Dumbbell Fly',
  'Cable Fly Crossovers': 'Cable Crossover',
  'Chest Fly (Cable)': 'Cable Crossover',
  'Butterfly (Pec Deck)': 'Pec Deck',
  'Chest Fly (Machine)': 'Pec Deck',
  'Overhead Press (Barbell)': 'Overhead Press',
  'Strict Military Press (Barbell)': 'Overhead Press',
  'Military Press (Barbell)': 'Overhead Press',
  'Shoulder Press (Barbell)': 'Overhead Press',
  'Shoulder Press (Dumbbell)': 'Seated Dumbbell Shoulder Press',
  'Seated Overhead Press (Dumbbell)': 'Seated Dumbbell Shoulder Press',
  'Overhead Press (Dumbbell)': 'Seated Dumbbell Shoulder Press',
  'Arnold Press (Dumbbell)': 'Arnold Press',
  'Push Press (Barbell)': 'Push Press',
  'Lateral Raise (Dumbbell)': 'Lateral Raise',
  'Lateral Raise (Cable)': 'Cable Lateral Raise',
  'Front Raise (Dumbbell)': 'Front Raise',
  'Reverse Fly (Dumbbell)': 'Reverse Fly',
  'Rear Delt Reverse Fly (Dumbbell)': 'Reverse Fly',
  'Face Pull (Cable)': 'Face Pull',
  'Upright Row (Barbell)': 'Upright Row',
  'Shrug (Barbell)': 'Barbell Shrug',
  'Shrug (Dumbbell)': 'Dumbbell Shrug',
  'Pull Up': 'Pull-Up',
  'Pull Up (Weighted)': 'Weighted Pull-Up',
  'Chin Up': 'Chin-Up',
  'Neutral Grip Pull Up': 'Neutral-Grip Pull-Up',
  'Bent Over Row (Barbell)': 'Barbell Row',
  'Bent Over Row (Dumbbell)': 'One-Arm Dumbbell Row',
  'Dumbbell Row': 'One-Arm Dumbbell Row',
  'Single Arm Row (Dumbbell)': 'One-Arm Dumbbell Row',
  'Pendlay Row (Barbell)': 'Pendlay Row',
  'T Bar Row': 'T-Bar Row',
  'Lat Pulldown (Cable)': 'Lat Pulldown',
  'Lat Pulldown (Machine)': 'Lat Pulldown',
  'Lat Pulldown - Close Grip (Cable)': 'Close-Grip Lat Pulldown',
  'Seated Row (Cable)': 'Seated Cable Row',
  'Seated Cable Row - V Grip (Cable)': 'Seated Cable Row',
  'Seated Row (Machine)': 'Machine Row',
  'Straight Arm Pulldown (Cable)': 'Straight-Arm Pulldown',
  'Inverted Row': 'Inverted Row',
  'Back Extension (Hyperextension)': 'Back Extension',
  'Hyperextension': 'Back Extension',
  'Good Morning (Barbell)': 'Good Morning',
  'Rack Pull (Barbell)': 'Rack Pull',
  'Bicep Curl (Barbell)': 'Barbell Curl',
  'Curl (Barbell)': 'Barbell Curl',
  'Bicep Curl (Dumbbell)': 'Dumbbell Curl',
  'Curl (Dumbbell)': 'Dumbbell Curl',
  'Bicep Curl (Cable)': 'Cable Curl',
  'EZ Bar Biceps Curl': 'EZ-Bar Curl',
  'Bicep Curl (EZ Bar)': 'EZ-Bar Curl',
  'Hammer Curl (Dumbbell)': 'Hammer Curl',
  'Preacher Curl (Barbell)': 'Preacher Curl',
  'Preacher Curl (Dumbbell)': 'Preacher Curl',
  'Concentration Curl (Dumbbell)': 'Concentration Curl',
  'Incline Curl (Dumbbell)': 'Incline Dumbbell Curl',
  'Reverse Curl (Barbell)': 'Reverse Curl',
  'Triceps Pushdown (Cable - Straight Bar)': 'Triceps Pushdown',
  'Triceps Pushdown': 'Triceps Pushdown',
  'Triceps Rope Pushdown': 'Triceps Pushdown',
  'Skullcrusher (Barbell)': 'Skull Crusher',
  'Skullcrusher (Dumbbell)': 'Skull Crusher',
  'Triceps Extension (Dumbbell)': 'Overhead Triceps Extension',
  'Overhead Triceps Extension (Cable)': 'Overhead Triceps Extension',
  'Triceps Kickback (Dumbbell)': 'Triceps Kickback',
  'Triceps Dip': 'Dip',
  'Chest Dip': 'Dip',
  'Bench Dip': 'Bench Dip',
  'Push Up': 'Push-Up',
  'Leg Press (Machine)': 'Leg Press',
  'Leg Extension (Machine)': 'Leg Extension',
  'Lying Leg Curl (Machine)': 'Leg Curl',
  'Leg Curl (Machine)': 'Leg Curl',
  'Seated Leg Curl (Machine)': 'Seated Leg Curl',
  'Hack Squat (Machine)': 'Hack Squat',
  'Goblet Squat (Dumbbell)': 'Goblet Squat',
  'Bulgarian Split Squat (Dumbbell)': 'Bulgarian Split Squat',
  'Split Squat (Dumbbell)': 'Bulgarian Split Squat',
  'Walking Lunge (Dumbbell)': 'Walking Lunge',
  'Lunge (Dumbbell)': 'Walking Lunge',
  'Reverse Lunge (Dumbbell)': 'Reverse Lunge',
  'Step Up (Dumbbell)': 'Step-Up',
  'Hip Thrust (Barbell)': 'Hip Thrust',
  'Glute Bridge (Barbell)': 'Glute Bridge',
  'Hip Abductor (Machine)': 'Hip Abduction Machine',
  'Hip Adductor (Machine)': 'Hip Adduction Machine',
  'Standing Calf Raise (Machine)': 'Standing Calf Raise',
  'Calf Raise (Standing)': 'Standing Calf Raise',
  'Seated Calf Raise (Machine)': 'Seated Calf Raise',
  'Seated Calf Raise (Plate Loaded)': 'Seated Calf Raise',
  'Calf Press on Leg Press': 'Leg Press Calf Raise',
  'Hanging Knee Raise': 'Hanging Leg Raise',
  'Ab Wheel': 'Ab Wheel Rollout',
  'Crunch (Cable)': 'Cable Crunch',
  'Kettlebell Swing': 'Kettlebell Swing',
  'Clean and Jerk (Barbell)': 'Clean and Jerk',
  'Power Clean (Barbell)': 'Power Clean',
  'Hang Clean (Barbell)': 'Hang Clean',
  'Snatch (Barbell)': 'Snatch',
  'Box Jump': 'Box Jump',
};


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

/** A name's words in one order: names with the same words are one name. */
function nameKey(tokens: string[]): string {
  return [...tokens].sort().join(' ');
}

/** APP_NAMES by the key `find` makes of a name. */
const APP_KEYS = new Map(Object.entries(APP_NAMES).map(([app, catalog]) => [nameKey(words(app)), catalog]));

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
    return nameKey(tokens);
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

  /**
   * The exercise an app's name means: the same words (own exercises first), then the catalog name
   * Strong and Hevy use for it (APP_NAMES), then the same words without the equipment the catalog
   * assumes. Undefined when none: the import then makes it the user's own exercise.
   */
  find(name: string): Exercise | undefined {
    const tokens = words(name);
    const key = ExerciseMatcher.key(tokens);
    const known = APP_KEYS.get(key);
    return (
      this.byKey.get(key) ??
      (known ? this.byKey.get(ExerciseMatcher.key(words(known))) : undefined) ??
      this.byKey.get(ExerciseMatcher.key(tokens.filter((t) => !IMPLIED_EQUIPMENT.has(t))))
    );
  }
}
