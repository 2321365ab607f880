import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestApp, type TestApp } from '../../test/support/test-app.js';
import { globalExercise } from '../training/activity.test-helpers.js';
import { keyHolder } from './public-api.test-helpers.js';

let app: TestApp;
let user: Awaited<ReturnType<typeof keyHolder>>;
beforeAll(async () => {
  app = await sharedTestApp();
  user = await keyHolder(app);
});

describe('POST /workouts and the training metrics', () => {
  it("maps sets onto the training model: weight is the load the session API's computed metrics read", async () => {
    const squat = await globalExercise(user.client, 'Barbell Back Squat');
    await user.client.patch(`/api/v1/exercises/${squat.id}`, { oneRepMax: 125 });
    const res = await user.api.post('/workouts', {
      splitLabel: 'Legs',
      exercises: [{ exerciseId: squat.id, sets: [{ setNumber: 1, reps: 10, weight: 100 }, { setNumber: 2, reps: 7, weight: 100 }] }],
    });
    expect(res.status, res.text).toBe(200);
    // The Public API answers what the spec's table says, identifiers and what was logged: no metrics.
    expect(Object.keys(res.body.data).sort()).toEqual(['exercisesCount', 'id', 'message', 'splitLabel']);
    const session = await user.client.get(`/api/v1/training/sessions/${res.body.data.id}`);
    expect(session.body.data.exercises[0]).toMatchObject({ volume: 1700, bestE1rm: 133.3, fatigueIndex: 30 });
    expect(session.body.data.exercises[0].sets.map((s: any) => [s.load, s.e1rm, s.percent1rm, s.rpe])).toEqual([
      [100, 133.3, 80, null],
      [100, 123.3, 80, null],
    ]);
  });

  it.each([['rpe', 8], ['tempo', '3-1-1-0'], ['e1rm', 120], ['percent1rm', 80]])(
    'refuses %s in a set: its table lists setNumber, reps and weight only (400 naming it), logging nothing',
    async (field, value) => {
      const squat = await globalExercise(user.client, 'Barbell Back Squat');
      const before = (await user.client.get('/api/v1/training/sessions')).body.meta.total;
      const res = await user.api.post('/workouts', {
        splitLabel: 'Legs',
        exercises: [{ exerciseId: squat.id, sets: [{ setNumber: 1, reps: 5, weight: 100, [field]: value }] }],
      });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.body.error.details.errors)).toContain(field);
      expect((await user.client.get('/api/v1/training/sessions')).body.meta.total).toBe(before);
    },
  );
});
