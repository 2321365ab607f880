import type { RouteTable } from './route-table.js';

/**
 * The Public API (`/api/public/v1`): its own surface, route table and envelope, authenticated by API
 * key. None of these operations is in the session route table, and no session operation is here.
 */
export const publicRoutes: RouteTable = {
  'Query.publicSearchExercises': { method: 'GET', path: '/exercises/search' },
  'Mutation.publicLogWater': { method: 'POST', path: '/water' },
  'Mutation.publicLogWorkout': { method: 'POST', path: '/workouts' },
  'Mutation.publicLogSteps': { method: 'POST', path: '/steps' },
  'Mutation.publicLogMeditation': { method: 'POST', path: '/meditation' },
  'Mutation.publicLogCardio': { method: 'POST', path: '/cardio' },
  'Mutation.publicLogMood': { method: 'POST', path: '/mood' },
  'Mutation.publicLogSleep': { method: 'POST', path: '/sleep' },
  'Mutation.publicLogBodyMetrics': { method: 'POST', path: '/body-metrics' },
  'Query.publicHabits': { method: 'GET', path: '/habits' },
  'Mutation.publicLogHabit': { method: 'POST', path: '/habits/:habitId/entries', responseStatus: 201 },
  // Undo (docs/undo.md): the token a write answered in its Undo-Token header, as the JSON body { token }.
  'Mutation.publicUndo': { method: 'POST', path: '/undo' },
  'Mutation.publicQuickAdd': { method: 'POST', path: '/quick', responseStatus: 201, existingStatus: 200, existingStatusMeans: 'Success of a dry run: what would be made, nothing written, `{ ok: true, data }`.' },
};
