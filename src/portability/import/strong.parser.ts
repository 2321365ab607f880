import { LOAD_MAX_KG, NOTES_MAX, REPS_MAX, SET_NOTES_MAX } from '../../training/training.types.js';
import { calendarDate, optionalInteger, optionalNumber, optionalText, Refusals, refuse, requireText, RowRefusal, type CsvTable, type LocalDateTime } from './csv.js';
import { fileError } from './csv.js';

/** Strong's workout CSV (operations.md "Portability"). */
export const STRONG_COLUMNS = ['Date', 'Workout Name', 'Duration', 'Exercise Name', 'Set Order', 'Weight', 'Reps', 'Distance', 'Seconds', 'Notes', 'Workout Notes', 'RPE'] as const;
/** The columns Strong files always have; Distance, Seconds, Notes, Workout Notes and RPE may be absent. */
const STRONG_REQUIRED = ['Date', 'Workout Name', 'Exercise Name', 'Set Order', 'Weight', 'Reps'] as const;
/** Hevy's workout CSV ("Export workouts" in its settings): one row per set, weights in kg or lbs. */
export const HEVY_COLUMNS = ['title', 'start_time', 'end_time', 'description', 'exercise_title', 'superset_id', 'exercise_notes', 'set_index', 'set_type', 'weight_kg', 'reps', 'distance_km', 'duration_seconds', 'rpe'] as const;
const HEVY_REQUIRED = ['title', 'start_time', 'exercise_title', 'reps'] as const;

const LBS_TO_KG = 0.45359237;
const SPLIT_MAX = 100;
const EXERCISE_NAME_MAX = 200;

export interface ImportedSet {
  row: number;
  reps: number | null;
  load: number | null;
  rpe: number | null;
  notes: string | null;
}

export interface ImportedExercise {
  name: string;
  /** Only distance or time logged (a run, a plank): a new exercise gets category cardio. */
  timed: boolean;
  sets: ImportedSet[];
}

/** One workout: every set row with the same start and name. */
export interface ImportedWorkout {
  start: LocalDateTime;
  /** Minutes, when the file says. */
  durationMinutes: number | null;
  split: string;
  notes: string | null;
  exercises: ImportedExercise[];
  rows: number[];
}

export interface ParsedWorkouts {
  format: 'strong' | 'hevy';
  workouts: ImportedWorkout[];
  refusals: Refusals;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };

/**
 * A workout start: Strong writes `2024-01-15 07:30:00`, Hevy `15 Jan 2024, 07:30`; ISO 8601 with a `T`
 * is taken too. Times are the phone's local time.
 */
export function parseWorkoutTime(value: string, column: string): LocalDateTime {
  let m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  let parts: [number, number, number, number, number, number] | null = null;
  if (m) parts = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  else if ((m = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(value))) {
    const month = MONTHS[m[2]!.toLowerCase()];
    if (month) parts = [Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  }
  const date = parts && calendarDate(parts[0], parts[1], parts[2]);
  if (!parts || !date || parts[3] > 23 || parts[4] > 59 || parts[5] > 59) {
    refuse(`${column} is not a date and time like 2024-01-15 07:30:00 (got ${JSON.stringify(value.slice(0, 30))})`);
  }
  return { date, hour: parts[3], minute: parts[4], second: parts[5] };
}

/** Strong's Duration: `1h 5m`, `45m`, `1h`, `30s`, or plain seconds. */
export function parseDuration(value: string): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value)) return Math.round(Number(value) / 60);
  const m = /^(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?\s*(?:(\d+)\s*s)?$/i.exec(value);
  if (!m || (!m[1] && !m[2] && !m[3])) refuse(`Duration is not like 1h 5m (got ${JSON.stringify(value.slice(0, 20))})`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) + Math.round(Number(m[3] ?? 0) / 60);
}

interface SetRow {
  row: number;
  start: LocalDateTime;
  startText: string;
  durationMinutes: number | null;
  split: string;
  workoutNotes: string | null;
  exercise: string;
  setKind: string | null;
  weightKg: number | null;
  reps: number | null;
  distance: number | null;
  seconds: number | null;
  rpe: number | null;
  notes: string | null;
}

function rpeOf(value: string): number | null {
  const rpe = optionalNumber(value, 'RPE', 1, 10);
  if (rpe !== undefined && !Number.isInteger(rpe * 2)) refuse('RPE must be 1 to 10 in steps of 0.5');
  return rpe ?? null;
}

/**
 * What a set logged, as the app stores it: the apps write 0 for what was not logged (Strong puts
 * Weight=0, Reps=0 on cardio rows and Distance=0, Seconds=0 on strength sets), so a zero distance or
 * time is "not logged", and so are a zero weight with zero reps (a cardio row). A zero weight with reps
 * stays: a bodyweight set. Loads are rounded to 10 g (Strong's float noise: 125.00000000000001 is 125).
 */
function logged(r: SetRow): SetRow {
  const nothingLifted = !r.weightKg && !r.reps;
  return {
    ...r,
    weightKg: nothingLifted || r.weightKg === null ? null : Math.round(r.weightKg * 100) / 100,
    reps: nothingLifted ? null : r.reps,
    distance: r.distance || null,
    seconds: r.seconds || null,
  };
}

function strongRow(row: number, c: Record<string, string>): SetRow {
  const start = parseWorkoutTime(c.Date ?? '', 'Date');
  const order = c['Set Order'] ?? '';
  // Strong writes W (warm-up), D (drop set) or F (failure) instead of a number for special sets.
  const kinds: Record<string, string> = { W: 'warm-up', D: 'drop set', F: 'failure' };
  let setKind: string | null = null;
  if (kinds[order.toUpperCase()]) setKind = kinds[order.toUpperCase()]!;
  else optionalInteger(order, 'Set Order', 0, 1000);
  return {
    row,
    start,
    startText: c.Date!,
    durationMinutes: parseDuration(c.Duration ?? ''),
    split: requireText(c['Workout Name'] ?? '', 'Workout Name', SPLIT_MAX),
    workoutNotes: optionalText(c['Workout Notes'] ?? '', 'Workout Notes', NOTES_MAX),
    exercise: requireText(c['Exercise Name'] ?? '', 'Exercise Name', EXERCISE_NAME_MAX),
    setKind,
    weightKg: optionalNumber(c.Weight ?? '', 'Weight', 0, LOAD_MAX_KG) ?? null,
    reps: optionalInteger(c.Reps ?? '', 'Reps', 0, REPS_MAX) ?? null,
    distance: optionalNumber(c.Distance ?? '', 'Distance', 0, 1_000_000) ?? null,
    seconds: optionalInteger(c.Seconds ?? '', 'Seconds', 0, 86_400) ?? null,
    rpe: rpeOf(c.RPE ?? ''),
    notes: optionalText(c.Notes ?? '', 'Notes', SET_NOTES_MAX),
  };
}

function hevyRow(row: number, c: Record<string, string>): SetRow {
  const start = parseWorkoutTime(c.start_time ?? '', 'start_time');
  let durationMinutes: number | null = null;
  if (c.end_time) {
    const end = parseWorkoutTime(c.end_time, 'end_time');
    const ms = (d: LocalDateTime) => Date.parse(`${d.date}T00:00:00Z`) + ((d.hour * 60 + d.minute) * 60 + d.second) * 1000;
    const minutes = Math.round((ms(end) - ms(start)) / 60_000);
    if (minutes < 0) refuse('end_time is before start_time');
    durationMinutes = minutes;
  }
  const pounds = c.weight_lbs !== undefined && c.weight_kg === undefined;
  const weight = pounds ? optionalNumber(c.weight_lbs!, 'weight_lbs', 0, LOAD_MAX_KG / LBS_TO_KG) : optionalNumber(c.weight_kg ?? '', 'weight_kg', 0, LOAD_MAX_KG);
  const type = (c.set_type ?? '').toLowerCase();
  const kinds: Record<string, string> = { warmup: 'warm-up', dropset: 'drop set', failure: 'failure' };
  const miles = c.distance_miles !== undefined && c.distance_km === undefined;
  const distance = miles ? optionalNumber(c.distance_miles!, 'distance_miles', 0, 100_000) : optionalNumber(c.distance_km ?? '', 'distance_km', 0, 100_000);
  return {
    row,
    start,
    startText: c.start_time!,
    durationMinutes,
    split: requireText(c.title ?? '', 'title', SPLIT_MAX),
    workoutNotes: optionalText(c.description ?? '', 'description', NOTES_MAX),
    exercise: requireText(c.exercise_title ?? '', 'exercise_title', EXERCISE_NAME_MAX),
    setKind: kinds[type] ?? null,
    weightKg: weight === undefined ? null : pounds ? Math.round(weight * LBS_TO_KG * 100) / 100 : weight,
    reps: optionalInteger(c.reps ?? '', 'reps', 0, REPS_MAX) ?? null,
    distance: distance ?? null,
    seconds: optionalInteger(c.duration_seconds ?? '', 'duration_seconds', 0, 86_400) ?? null,
    rpe: rpeOf(c.rpe ?? ''),
    notes: optionalText(c.exercise_notes ?? '', 'exercise_notes', SET_NOTES_MAX),
  };
}

function setNotes(r: SetRow): string | null {
  const parts = [r.setKind, r.distance !== null ? `distance ${r.distance}` : null, r.seconds !== null ? `${r.seconds} s` : null, r.notes].filter(Boolean);
  const text = parts.join('; ');
  return text ? text.slice(0, SET_NOTES_MAX) : null;
}

/** Which app wrote the file, from its header; neither → 400 naming the columns Strong needs. */
export function workoutFormat(table: CsvTable): 'strong' | 'hevy' {
  if (HEVY_REQUIRED.every((c) => table.header.includes(c)) && (table.header.includes('weight_kg') || table.header.includes('weight_lbs'))) return 'hevy';
  const missing = STRONG_REQUIRED.filter((c) => !table.header.includes(c));
  if (missing.length) throw fileError(`Not a Strong or Hevy workout CSV: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  return 'strong';
}

/**
 * Groups set rows into workouts: one per (start time, workout name), its exercises in the order they
 * first appear, their sets in file order (set numbers 1..n). A row that fails a check is refused alone.
 */
export function parseWorkouts(table: CsvTable): ParsedWorkouts {
  const format = workoutFormat(table);
  const refusals = new Refusals();
  const workouts = new Map<string, ImportedWorkout>();
  for (const { row, cells } of table.rows) {
    let set: SetRow;
    try {
      set = logged(format === 'strong' ? strongRow(row, cells) : hevyRow(row, cells));
    } catch (error) {
      if (!(error instanceof RowRefusal)) throw error;
      refusals.add(row, error.message);
      continue;
    }
    const key = `${set.start.date} ${set.start.hour}:${set.start.minute}:${set.start.second}\n${set.split}`;
    let workout = workouts.get(key);
    if (!workout) {
      workout = { start: set.start, durationMinutes: set.durationMinutes, split: set.split, notes: set.workoutNotes, exercises: [], rows: [] };
      workouts.set(key, workout);
    }
    workout.rows.push(row);
    workout.durationMinutes ??= set.durationMinutes;
    workout.notes ??= set.workoutNotes;
    let exercise = workout.exercises.find((e) => e.name.toLowerCase() === set.exercise.toLowerCase());
    if (!exercise) {
      exercise = { name: set.exercise, timed: true, sets: [] };
      workout.exercises.push(exercise);
    }
    if (set.weightKg !== null || set.reps !== null) exercise.timed = false;
    exercise.sets.push({ row, reps: set.reps, load: set.weightKg, rpe: set.rpe, notes: setNotes(set) });
  }
  return { format, workouts: [...workouts.values()], refusals };
}
