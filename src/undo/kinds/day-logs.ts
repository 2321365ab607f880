import { Day } from '../../planning/day.entity.js';
import { ChecklistService } from '../../planning/checklist.service.js';
import { ChecklistKey } from '../../planning/checklist-key.js';
import { ChecklistItem } from '../../planning/checklist-item.entity.js';
import { WaterIntake } from '../../wellness/water-intake.entity.js';
import { StepsEntry } from '../../wellness/steps-entry.entity.js';
import { MeditationSession } from '../../wellness/meditation-session.entity.js';
import { MoodEntry } from '../../wellness/mood-entry.entity.js';
import { SleepEntry } from '../../wellness/sleep-entry.entity.js';
import { MeditationService, MoodService, SleepService, StepsService, WaterService } from '../../wellness/wellness.service.js';
import { CardioSession } from '../../training/cardio-session.entity.js';
import { CardioSessionService } from '../../training/cardio-session.service.js';
import { MobilitySession } from '../../training/mobility-session.entity.js';
import { MobilitySessionService } from '../../training/mobility-session.service.js';
import { TrainingSession } from '../../training/training-session.entity.js';
import { TrainingSessionService } from '../../training/training-session.service.js';
import { BodyMeasurement } from '../../body/body-measurement.entity.js';
import { BodyMeasurementService } from '../../body/body-measurement.service.js';
import { ProgressPhoto } from '../../body/progress-photo.entity.js';
import { ProgressPhotoService } from '../../body/progress-photo.service.js';
import type { ServiceScope } from '../../core/request-services.js';
import { requireSameValues, requireUntouched, type UndoKind, type UndoOffer } from '../undo-kind.js';

/** A record a log made (the app's write answers it; a Public API write keeps it unanswered as `record`). */
type Logged = { id: string; dayId: string; updatedAt: Date };
type Entity = new (...args: never[]) => Logged;

/** How one log is taken back: what it keeps besides the record's `updatedAt`, and the service call. */
interface LogFamily<R extends Logged> {
  entity: Entity;
  resource: string;
  keep?(record: R): Record<string, unknown>;
  remove(scope: ServiceScope, userId: string, offer: UndoOffer): Promise<void>;
}

/**
 * A log that made one record: its undo takes exactly that record back through its service (its amount
 * leaves the day's total, its XP is taken back). Refused (409) when the record changed or went since.
 * `publicAnswer`: the write is the Public API's twin, whose answer holds the record unanswered.
 */
function logKind<R extends Logged>(kind: string, mutation: string, family: LogFamily<R>, publicAnswer = false): UndoKind {
  return {
    kind,
    mutation,
    offer(_scope, _userId, _args, result) {
      const record = (publicAnswer ? (result as { record?: R }).record : result) as R | undefined;
      if (!record) return null;
      return { recordId: record.id, data: { dayId: record.dayId, updatedAt: record.updatedAt.toISOString(), ...family.keep?.(record) } };
    },
    async invert(scope, userId, offer) {
      const found = await scope.em.findOne(family.entity, { id: offer.recordId, userId } as never, { fields: ['updatedAt'] as never });
      requireUntouched(found as { updatedAt: Date } | null, offer, family.resource);
      await family.remove(scope, userId, offer);
    },
  };
}

/** The day's fields a log set are still the ones it left (a later log or edit of the day: 409). */
async function requireDayValues(scope: ServiceScope, userId: string, offer: UndoOffer, left: Record<string, unknown>): Promise<void> {
  const day = await scope.em.findOne(Day, { id: offer.data.dayId as string, userId }, { fields: Object.keys(left) as never });
  requireSameValues(day as Record<string, unknown> | null, left, 'Day');
}

const water: LogFamily<WaterIntake> = {
  entity: WaterIntake,
  resource: 'Water intake',
  remove: ({ em }, userId, offer) => new WaterService(em).remove(userId, offer.recordId),
};

const steps: LogFamily<StepsEntry> = {
  entity: StepsEntry,
  resource: 'Steps entry',
  remove: ({ em }, userId, offer) => new StepsService(em).remove(userId, offer.recordId),
};

const meditation: LogFamily<MeditationSession> = {
  entity: MeditationSession,
  resource: 'Meditation session',
  keep: (session) => ({ tickedChecklist: session.tickedChecklist === true }),
  async remove({ em }, userId, offer) {
    await new MeditationService(em).remove(userId, offer.recordId);
    if (!offer.data.tickedChecklist) return;
    // The log ticked MEDITATION: unticked again (its XP back, the day's completion judged again) unless unticked since.
    const item = await em.findOne(ChecklistItem, { dayId: offer.data.dayId as string, key: ChecklistKey.MEDITATION, userId }, { fields: ['completed'] });
    if (item?.completed) await new ChecklistService(em).setCompleted(userId, offer.data.dayId as string, ChecklistKey.MEDITATION, false);
  },
};

const mood: LogFamily<MoodEntry> = {
  entity: MoodEntry,
  resource: 'Mood entry',
  keep: (entry) => ({ left: { mood: entry.mood, energy: entry.energy }, previous: entry.replaced ?? { mood: null, energy: null } }),
  async remove(scope, userId, offer) {
    await requireDayValues(scope, userId, offer, offer.data.left as Record<string, unknown>);
    await new MoodService(scope.em).remove(userId, offer.recordId, offer.data.previous as { mood: number | null; energy: number | null });
  },
};

const sleep: LogFamily<SleepEntry> = {
  entity: SleepEntry,
  resource: 'Sleep entry',
  keep: (entry) => ({ left: { sleepHours: entry.duration }, previous: entry.replacedSleepHours ?? null }),
  async remove(scope, userId, offer) {
    await requireDayValues(scope, userId, offer, offer.data.left as Record<string, unknown>);
    await new SleepService(scope.em).remove(userId, offer.recordId, offer.data.previous as number | null);
  },
};

const cardio: LogFamily<CardioSession> = {
  entity: CardioSession,
  resource: 'Cardio session',
  remove: ({ em }, userId, offer) => new CardioSessionService(em).remove(userId, offer.recordId),
};

const mobility: LogFamily<MobilitySession> = {
  entity: MobilitySession,
  resource: 'Mobility session',
  remove: ({ em }, userId, offer) => new MobilitySessionService(em).remove(userId, offer.recordId),
};

const workout: LogFamily<TrainingSession> = {
  entity: TrainingSession,
  resource: 'Training session',
  remove: async ({ em }, userId, offer) => void (await new TrainingSessionService(em).delete(userId, offer.recordId)),
};

const bodyMeasurement: LogFamily<BodyMeasurement> = {
  entity: BodyMeasurement,
  resource: 'Body measurement',
  remove: ({ em }, userId, offer) => new BodyMeasurementService(em).remove(userId, offer.recordId),
};

const progressPhoto: LogFamily<ProgressPhoto> = {
  entity: ProgressPhoto,
  resource: 'Progress photo',
  remove: (scope, userId, offer) => ProgressPhotoService.forRequest(scope).remove(userId, offer.recordId),
};

/** The day logs of the app and their Public API twins (the same inverse). */
export const DAY_LOGS: readonly UndoKind[] = [
  logKind('water_log', 'logWater', water),
  logKind('steps_log', 'logSteps', steps),
  logKind('meditation_log', 'logMeditation', meditation),
  logKind('mood_log', 'logMood', mood),
  logKind('sleep_log', 'logSleep', sleep),
  logKind('cardio_log', 'createCardioSession', cardio),
  logKind('mobility_log', 'createMobilitySession', mobility),
  logKind('body_measurement_log', 'createBodyMeasurement', bodyMeasurement),
  logKind('progress_photo_log', 'createProgressPhoto', progressPhoto),
  logKind('public_water_log', 'publicLogWater', water, true),
  logKind('public_steps_log', 'publicLogSteps', steps, true),
  logKind('public_meditation_log', 'publicLogMeditation', meditation, true),
  logKind('public_mood_log', 'publicLogMood', mood, true),
  logKind('public_sleep_log', 'publicLogSleep', sleep, true),
  logKind('public_cardio_log', 'publicLogCardio', cardio, true),
  logKind('public_workout_log', 'publicLogWorkout', workout, true),
  logKind('public_body_metrics_log', 'publicLogBodyMetrics', bodyMeasurement, true),
];
