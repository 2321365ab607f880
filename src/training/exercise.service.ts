import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { Exercise } from './exercise.entity.js';
import { findPage } from '../core/database/find-page.js';

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
  async search(userId: string, q?: string): Promise<Exercise[]> {
    const where: FilterQuery<Exercise> = { $or: [{ isGlobal: true }, { userId }] };
    const text = q?.trim();
    if (text) where.name = { $ilike: `%${likeEscape(text)}%` };
    return this.em.find(Exercise, where, { orderBy: { name: 'asc', id: 'asc' } });
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

  async update(userId: string, exerciseId: string, changes: ExerciseChanges): Promise<Exercise> {
    const exercise = await this.own(userId, exerciseId);
    if (changes.name !== undefined) exercise.name = changes.name.trim();
    if (changes.category !== undefined) exercise.category = changes.category.trim();
    if (changes.muscleGroups !== undefined) exercise.muscleGroups = normaliseGroups(changes.muscleGroups);
    await this.em.flush();
    return exercise;
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

  private async own(userId: string, exerciseId: string): Promise<Exercise> {
    const exercise = await this.em.findOne(Exercise, { id: exerciseId, userId, isGlobal: false });
    if (!exercise) throw new NotFoundError('Exercise');
    return exercise;
  }
}
