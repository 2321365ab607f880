import { deleteReported } from '../core/live/deletion-changes.queries.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode, type FilterQuery } from '@mikro-orm/core';
import { deleted, type Deleted } from '../core/deleted.js';
import { NotFoundError } from '../core/errors.js';
import { recordEvent } from '../core/events/record-event.js';
import { recordFact } from '../core/events/fact-dispatcher.js';
import type { Page, PageArgs } from '../core/pagination.js';
import { dayRangeWhere, requireDay, requireDays, type DayRange } from '../planning/day-scope.js';
import type { Exercise } from './exercise.entity.js';
import { ExerciseService } from './exercise.service.js';
import { checkOrder, toDate, type DateInput } from '../core/datetimes.js';
import { TrainingExercise } from './training-exercise.entity.js';
import { TrainingSession } from './training-session.entity.js';
import { TrainingSet } from './training-set.entity.js';
import type { RangeOfMotion } from './range-of-motion.js';
import { findPage } from '../core/database/find-page.js';

export interface TrainingSetData {
  setNumber?: number | null;
  reps?: number | null;
  load?: number | null;
  rir?: number | null;
  restTime?: number | null;
  rpe?: number | null;
  tempo?: string | null;
  tut?: number | null;
  rom?: RangeOfMotion | null;
  pauseDuration?: number | null;
  velocity?: number | null;
  notes?: string | null;
}

export interface TrainingExerciseData {
  exerciseId: string;
  sets?: TrainingSetData[] | null;
}

export interface NewTrainingSession {
  dayId: string;
  split: string;
  /** Defaults to now. */
  startTime?: DateInput | null;
  endTime?: DateInput | null;
  sessionRPE?: number | null;
  notes?: string | null;
  exercises?: TrainingExerciseData[] | null;
}

/** Absent leaves a field as it is; null clears endTime, sessionRPE and notes; `exercises` replaces all. */
export interface TrainingSessionChanges {
  split?: string;
  startTime?: DateInput;
  endTime?: DateInput | null;
  sessionRPE?: number | null;
  notes?: string | null;
  exercises?: TrainingExerciseData[];
}

export interface TrainingSessionFilter extends DayRange, PageArgs {}

/**
 * Gym sessions with their exercises and sets. Exercises must come from the user's catalog (global or
 * own). Every write is one transaction with its event: training_logged on create, training_updated on
 * change.
 */
export class TrainingSessionService {
  constructor(private readonly em: EntityManager) {}

  async create(userId: string, input: NewTrainingSession): Promise<TrainingSession> {
    const now = new Date();
    const startTime = toDate(input.startTime, 'startTime') ?? now;
    const endTime = toDate(input.endTime, 'endTime') ?? null;
    checkOrder(startTime, endTime, 'startTime', 'endTime');
    return this.em.transactional(async (em) => {
      await requireDay(em, userId, input.dayId);
      const exercises = input.exercises ?? [];
      const catalog = await new ExerciseService(em).requireInCatalog(userId, exercises.map((e) => e.exerciseId));
      const session = em.create(TrainingSession, {
        userId,
        dayId: input.dayId,
        split: input.split.trim(),
        startTime,
        endTime,
        sessionRPE: input.sessionRPE ?? null,
        notes: input.notes ?? null,
      });
      writeExercises(em, userId, session.id, exercises, catalog);
      recordEvent(em, userId, 'training_logged', { sessionId: session.id, split: session.split, loggedAt: now.toISOString() }, now);
      return session;
    });
  }

  /**
   * Many sessions at once (an import's batch), each as `create` makes one, with one day check and one
   * catalog read for all, and one flush (a statement per table).
   */
  async createMany(userId: string, inputs: readonly NewTrainingSession[]): Promise<TrainingSession[]> {
    if (!inputs.length) return [];
    const now = new Date();
    const times = inputs.map((input) => {
      const startTime = toDate(input.startTime, 'startTime') ?? now;
      const endTime = toDate(input.endTime, 'endTime') ?? null;
      checkOrder(startTime, endTime, 'startTime', 'endTime');
      return { startTime, endTime };
    });
    return this.em.transactional(async (em) => {
      await requireDays(em, userId, inputs.map((input) => input.dayId));
      const catalog = await new ExerciseService(em).requireInCatalog(userId, inputs.flatMap((input) => (input.exercises ?? []).map((e) => e.exerciseId)));
      const sessions = inputs.map((input, i) => {
        const session = em.create(TrainingSession, {
          userId,
          dayId: input.dayId,
          split: input.split.trim(),
          startTime: times[i]!.startTime,
          endTime: times[i]!.endTime,
          sessionRPE: input.sessionRPE ?? null,
          notes: input.notes ?? null,
        });
        writeExercises(em, userId, session.id, input.exercises ?? [], catalog);
        recordEvent(em, userId, 'training_logged', { sessionId: session.id, split: session.split, loggedAt: now.toISOString() }, now);
        return session;
      });
      await em.flush();
      return sessions;
    });
  }

  async get(userId: string, sessionId: string): Promise<TrainingSession> {
    const session = await this.em.findOne(TrainingSession, { id: sessionId, userId });
    if (!session) throw new NotFoundError('Training session');
    return session;
  }

  /** The user's sessions, by start time; filter by day or a date range. */
  async list(userId: string, filter: TrainingSessionFilter): Promise<Page<TrainingSession>> {
    const where = { userId, ...(await dayRangeWhere(this.em, userId, filter)) } as FilterQuery<TrainingSession>;
    return findPage(this.em, TrainingSession, where, { startTime: 'asc', id: 'asc' }, filter);
  }

  async update(userId: string, sessionId: string, changes: TrainingSessionChanges): Promise<TrainingSession> {
    const startChange = toDate(changes.startTime, 'startTime');
    const endChange = changes.endTime === null ? null : toDate(changes.endTime, 'endTime');
    return this.em.transactional(async (em) => {
      const session = await em.findOne(TrainingSession, { id: sessionId, userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!session) throw new NotFoundError('Training session');
      const catalog = changes.exercises
        ? await new ExerciseService(em).requireInCatalog(userId, changes.exercises.map((e) => e.exerciseId))
        : new Map<string, Exercise>();
      checkOrder(startChange ?? session.startTime, endChange === undefined ? session.endTime : endChange, 'startTime', 'endTime');

      const touched = Object.values(changes).some((v) => v !== undefined);
      if (changes.split !== undefined) session.split = changes.split.trim();
      if (startChange) session.startTime = startChange;
      if (endChange !== undefined) session.endTime = endChange;
      if (changes.sessionRPE !== undefined) session.sessionRPE = changes.sessionRPE;
      if (changes.notes !== undefined) session.notes = changes.notes;
      if (changes.exercises) {
        // Sets go with their exercise (ON DELETE CASCADE).
        await deleteReported(em, userId, TrainingExercise, { sessionId: session.id });
        writeExercises(em, userId, session.id, changes.exercises, catalog);
      }
      if (touched) {
        // Flushed first so the event carries the stored updatedAt (set by the entity's onUpdate).
        session.updatedAt = new Date(); // a change of exercises only still touches the session
        await em.flush();
        const updatedAt = session.updatedAt;
        recordEvent(em, userId, 'training_updated', { sessionId: session.id, updatedAt: updatedAt.toISOString() }, updatedAt);
      }
      return session;
    });
  }

  async delete(userId: string, sessionId: string): Promise<Deleted> {
    const session = await this.get(userId, sessionId);
    recordFact(this.em, userId, 'training_deleted', { sessionId });
    await this.em.remove(session).flush();
    return deleted(sessionId, 'Training session');
  }
}

function writeExercises(
  em: EntityManager,
  userId: string,
  sessionId: string,
  exercises: TrainingExerciseData[],
  catalog: Map<string, Exercise>,
): void {
  exercises.forEach((item, index) => {
    const entry = em.create(TrainingExercise, {
      userId,
      sessionId,
      exerciseId: item.exerciseId,
      exerciseName: catalog.get(item.exerciseId)!.name,
      order: index + 1,
    });
    (item.sets ?? []).forEach((set, setIndex) => {
      em.create(TrainingSet, {
        userId,
        trainingExerciseId: entry.id,
        setNumber: set.setNumber ?? setIndex + 1,
        reps: set.reps ?? null,
        load: set.load ?? null,
        rir: set.rir ?? null,
        restTime: set.restTime ?? null,
        rpe: set.rpe ?? null,
        tempo: set.tempo?.toUpperCase() ?? null,
        tut: set.tut ?? null,
        rom: set.rom ?? null,
        pauseDuration: set.pauseDuration ?? null,
        velocity: set.velocity ?? null,
        notes: set.notes ?? null,
      });
    });
  });
}
