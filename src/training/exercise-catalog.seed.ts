import type { EntityManager } from '@mikro-orm/postgresql';
import { stableId } from '../core/database/stable-id.js';
import { Exercise } from './exercise.entity.js';

/** The shared catalog every user starts with: common gym lifts and mobility drills. */
export const GLOBAL_EXERCISES: ReadonlyArray<{ name: string; category: string; muscleGroups: string[] }> = [
  { name: 'Barbell Back Squat', category: 'strength', muscleGroups: ['quadriceps', 'glutes', 'hamstrings', 'core'] },
  { name: 'Front Squat', category: 'strength', muscleGroups: ['quadriceps', 'glutes', 'core'] },
  { name: 'Deadlift', category: 'strength', muscleGroups: ['hamstrings', 'glutes', 'back', 'core'] },
  { name: 'Romanian Deadlift', category: 'strength', muscleGroups: ['hamstrings', 'glutes', 'back'] },
  { name: 'Bench Press', category: 'strength', muscleGroups: ['chest', 'triceps', 'shoulders'] },
  { name: 'Incline Dumbbell Press', category: 'strength', muscleGroups: ['chest', 'shoulders', 'triceps'] },
  { name: 'Overhead Press', category: 'strength', muscleGroups: ['shoulders', 'triceps', 'core'] },
  { name: 'Lateral Raise', category: 'strength', muscleGroups: ['shoulders'] },
  { name: 'Pull-Up', category: 'strength', muscleGroups: ['back', 'biceps'] },
  { name: 'Chin-Up', category: 'strength', muscleGroups: ['back', 'biceps'] },
  { name: 'Barbell Row', category: 'strength', muscleGroups: ['back', 'biceps'] },
  { name: 'Lat Pulldown', category: 'strength', muscleGroups: ['back', 'biceps'] },
  { name: 'Seated Cable Row', category: 'strength', muscleGroups: ['back', 'biceps'] },
  { name: 'Face Pull', category: 'strength', muscleGroups: ['shoulders', 'back'] },
  { name: 'Dip', category: 'strength', muscleGroups: ['chest', 'triceps'] },
  { name: 'Push-Up', category: 'strength', muscleGroups: ['chest', 'triceps', 'core'] },
  { name: 'Barbell Curl', category: 'strength', muscleGroups: ['biceps'] },
  { name: 'Hammer Curl', category: 'strength', muscleGroups: ['biceps', 'forearms'] },
  { name: 'Triceps Pushdown', category: 'strength', muscleGroups: ['triceps'] },
  { name: 'Skull Crusher', category: 'strength', muscleGroups: ['triceps'] },
  { name: 'Leg Press', category: 'strength', muscleGroups: ['quadriceps', 'glutes'] },
  { name: 'Walking Lunge', category: 'strength', muscleGroups: ['quadriceps', 'glutes', 'hamstrings'] },
  { name: 'Bulgarian Split Squat', category: 'strength', muscleGroups: ['quadriceps', 'glutes'] },
  { name: 'Leg Curl', category: 'strength', muscleGroups: ['hamstrings'] },
  { name: 'Leg Extension', category: 'strength', muscleGroups: ['quadriceps'] },
  { name: 'Hip Thrust', category: 'strength', muscleGroups: ['glutes', 'hamstrings'] },
  { name: 'Standing Calf Raise', category: 'strength', muscleGroups: ['calves'] },
  { name: 'Plank', category: 'core', muscleGroups: ['core'] },
  { name: 'Hanging Leg Raise', category: 'core', muscleGroups: ['core'] },
  { name: 'Cat-Cow', category: 'mobility', muscleGroups: ['back', 'core'] },
  { name: 'World\'s Greatest Stretch', category: 'mobility', muscleGroups: ['hips', 'hamstrings', 'back'] },
  { name: '90/90 Hip Switch', category: 'mobility', muscleGroups: ['hips', 'glutes'] },
  { name: 'Couch Stretch', category: 'mobility', muscleGroups: ['hips', 'quadriceps'] },
  { name: 'Thoracic Spine Rotation', category: 'mobility', muscleGroups: ['back'] },
  { name: 'Deep Squat Hold', category: 'mobility', muscleGroups: ['hips', 'ankles'] },
  { name: 'Shoulder Dislocate', category: 'mobility', muscleGroups: ['shoulders'] },
];

/** A stable id per global exercise (name-based), so seeding is idempotent. */
export function globalExerciseId(name: string): string {
  return stableId(`global-exercise:${name}`);
}

/** Inserts the global catalog's missing rows; existing rows (by id) are left as they are. */
export async function seedGlobalExercises(em: EntityManager): Promise<void> {
  const now = new Date();
  const rows = GLOBAL_EXERCISES.map((e) => ({
    id: globalExerciseId(e.name),
    createdAt: now,
    updatedAt: now,
    userId: null,
    name: e.name,
    category: e.category,
    muscleGroups: e.muscleGroups,
    isGlobal: true,
  }));
  await em.createQueryBuilder(Exercise).insert(rows).onConflict('id').ignore().execute();
}
