import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { Exercise } from './exercise.entity.js';
import { findPage } from '../core/database/find-page.js';
import { pageWindow, toPage } from '../core/pagination.js';
import { round } from './training-metrics.js';
import { exerciseHistoryRows, setOneRepMax } from './training.queries.js';

export interface ExerciseFilter extends PageArgs {
  category?: string | null;
  muscleGroup?: string | null;
  /** true: the global catalog only; false: the user's own only; absent: both. */
  global?: boolean | null;
  /** Name contains this text, any case. */
  q?: string | null;
}

export interface NewExercise {
  name: string;
  category: string;
  muscleGroups?: string[] | null;
  isGlobal?: boolean | null;
}

export interface ExerciseChanges {
  name?: string;
  category?: string;
  muscleGroups?: string[];
  /** The user's own one-rep max (kg); null clears it. Allowed on global exercises too. */
  oneRepMax?: number | null;
}

/** One session's work on an exercise (GET /exercises/:exerciseId/history). */
export interface ExerciseHistoryRow {
  sessionId: string;
  dayId: string;
  date: string;
  startTime: Date;
  split: string;
  setCount: number;
  volume: number;
  bestE1rm: number | null;
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function normaliseGroups(groups: string[] | null | undefined): string[] {
  return [...new Set((groups ?? []).map((g) => g.trim().toLowerCase()).filter(Boolean))];
}

/**
 * The exercise catalog of a user: the global exercises plus their own. Only their own can be changed
 * or deleted; a global exercise, like another user's, answers NOT_FOUND to update and delete.
 */
export class ExerciseService {
  constructor(private readonly em: EntityManager) {}

  /** The user's catalog (global + own) whose name contains `q` (any case), ordered by name. */
  /** Exercises by name; the first `limit` of them when given (an answer to a client), all for the importer. */
  async search(userId: string, q?: string, limit?: number): Promise<Exercise[]> {
    const where: FilterQuery<Exercise> = { $or: [{ isGlobal: true }, { userId }] };
    const text = q?.trim();
    if (text) where.name = { $ilike: `%${likeEscape(text)}%` };
    return this.em.find(Exercise, where, { orderBy: { name: 'asc', id: 'asc' }, ...(limit ? { limit } : {}) });
  }

  async list(userId: string, filter: ExerciseFilter): Promise<Page<Exercise>> {
    const where: FilterQuery<Exercise> & Record<string, unknown> =
      filter.global === true ? { isGlobal: true } : filter.global === false ? { userId, isGlobal: false } : { $or: [{ isGlobal: true }, { userId }] };
    if (filter.category?.trim()) where.category = { $ilike: likeEscape(filter.category.trim()) };
    if (filter.muscleGroup?.trim()) where.muscleGroups = { $contains: [filter.muscleGroup.trim().toLowerCase()] };
    if (filter.q?.trim()) where.name = { $ilike: `%${likeEscape(filter.q.trim())}%` };
    return findPage(this.em, Exercise, where, { name: 'asc', id: 'asc' }, filter);
  }

  async create(userId: string, input: NewExercise): Promise<Exercise> {
    if (input.isGlobal) {
      const message = 'Only the service adds global exercises; create your own with isGlobal false';
      throw new ValidationError(message, [{ path: ['isGlobal'], message }]);
    }
    const exercise = this.em.create(Exercise, {
      userId,
      name: input.name.trim(),
      category: input.category.trim(),
      muscleGroups: normaliseGroups(input.muscleGroups),
      isGlobal: false,
    });
    await this.em.flush();
    return exercise;
  }

  /**
   * Name, category and muscle groups change only on an own exercise (a global one answers NOT_FOUND,
   * changing nothing); `oneRepMax` is the user's own setting, so it may be set on a global exercise too.
   */
  async update(userId: string, exerciseId: string, changes: ExerciseChanges): Promise<Exercise> {
    const catalogChange = changes.name !== undefined || changes.category !== undefined || changes.muscleGroups !== undefined;
    return this.em.transactional(async (em) => {
      const service = new ExerciseService(em);
      const exercise = catalogChange ? await service.own(userId, exerciseId) : await service.get(userId, exerciseId);
      if (changes.name !== undefined) exercise.name = changes.name.trim();
      if (changes.category !== undefined) exercise.category = changes.category.trim();
      if (changes.muscleGroups !== undefined) exercise.muscleGroups = normaliseGroups(changes.muscleGroups);
      if (changes.oneRepMax !== undefined) await setOneRepMax(em, userId, exerciseId, changes.oneRepMax);
      await em.flush();
      return exercise;
    });
  }

  /** One exercise of the user's catalog (global or own); any other id → NotFoundError. */
  async get(userId: string, exerciseId: string): Promise<Exercise> {
    const exercise = await this.em.findOne(Exercise, { id: exerciseId, $or: [{ isGlobal: true }, { userId }] });
    if (!exercise) throw new NotFoundError('Exercise');
    return exercise;
  }

  /**
   * The user's sessions with the exercise, most recent first (by start time), one entry per session
   * with its set count, volume and best e1RM; two statements (page and total) whatever the data size.
   */
  async history(userId: string, exerciseId: string, args: PageArgs): Promise<Page<ExerciseHistoryRow>> {
    await this.get(userId, exerciseId);
    const window = pageWindow(args);
    const { rows, total } = await exerciseHistoryRows(this.em, userId, exerciseId, window);
    const items = rows.map((r) => ({
      sessionId: r.sessionId as string,
      dayId: r.dayId as string,
      date: r.date as string,
      startTime: new Date(r.startTime as string | Date),
      split: r.split as string,
      setCount: Number(r.setCount),
      volume: round(Number(r.volume), 2),
      bestE1rm: r.bestE1rm === null ? null : round(Number(r.bestE1rm), 1),
    }));
    return toPage(items, total, window);
  }

  /** Sessions that used the exercise keep their entries (with the name as logged). */
  async delete(userId: string, exerciseId: string): Promise<Deleted> {
    const exercise = await this.own(userId, exerciseId);
    await this.em.remove(exercise).flush();
    return deleted(exerciseId, 'Exercise');
  }

  /** The exercises of `ids` in the user's catalog; any other id → NotFoundError naming `field`. */
  async requireInCatalog(userId: string, ids: string[], field = 'exercises'): Promise<Map<string, Exercise>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await this.em.find(Exercise, { id: { $in: unique }, $or: [{ isGlobal: true }, { userId }] });
    if (rows.length !== unique.length) throw new NotFoundError('Exercise', { field });
    return new Map(rows.map((e) => [e.id, e]));
  }

  async own(userId: string, exerciseId: string): Promise<Exercise> {
    const exercise = await this.em.findOne(Exercise, { id: exerciseId, userId, isGlobal: false });
    if (!exercise) throw new NotFoundError('Exercise');
    return exercise;
  }
}
