import { addDays } from '../core/dates.js';
import { nullIfNotFound, ValidationError } from '../core/errors.js';
import { occurrencesBetween } from '../core/recurrence/recurrence.js';
import { DayService } from '../planning/day.service.js';
import { WeekService } from '../planning/week.service.js';
import { TaskCategoryService } from '../tasks/task-category.service.js';
import { TaskService } from '../tasks/task.service.js';
import { MoodService, SleepService, StepsService, WaterService } from '../wellness/wellness.service.js';
import { BodyMeasurementService } from '../body/body-measurement.service.js';
import { AccountService } from '../finance/account.service.js';
import { TransactionService } from '../finance/transaction.service.js';
import { ExerciseService } from '../training/exercise.service.js';
import { TrainingSessionService } from '../training/training-session.service.js';
import { BookService } from '../reading/book.service.js';
import { ReadingSessionService } from '../reading/reading-session.service.js';
import { PersonService } from '../social/person.service.js';
import { SocialHappeningService } from '../social/social-happening.service.js';
import { instantOf } from './dates.js';
import type { QuickKind } from './draft.js';
import type { KindWriter, NameMiss, WriteScope } from './writer.js';
import { EXERCISE_ALIASES, matchName, type NamedRecord } from './names.js';
import { habitEntryWriter, habitWriter } from './habit-writers.js';

/** Records read to match one name (the person's first ones by the list's order; the cap keeps it one bounded read). */
const NAME_READ_LIMIT = 100;

type F = Record<string, any>;

async function dayId(scope: WriteScope, date: string): Promise<string> {
  return (await scope.service(WeekService).ensureDay(scope.userId, date)).id;
}

const miss = (field: string, name: string, candidates: NamedRecord[]): NameMiss => ({ field, name, candidates: candidates.map(({ id, name: n }) => ({ id, name: n })) });

/** The first date of `rule` on or after `from` (the series starts on one of its own dates). */
function firstDate(rule: string, from: string): string | null {
  return occurrencesBetween({ rule, start: from }, from, addDays(from, 3660), 1)[0] ?? null;
}

async function categoryOf(scope: WriteScope, name: string | undefined): Promise<{ categoryId?: string; misses: NameMiss[] }> {
  if (!name) return { misses: [] };
  const page = await scope.service(TaskCategoryService).list(scope.userId, { page: 1, limit: NAME_READ_LIMIT });
  const match = matchName(page.items, name);
  return match.found ? { categoryId: match.found.id, misses: [] } : { misses: [miss('categoryName', name, match.candidates)] };
}

const withoutNames = (fields: F, ...names: string[]) => Object.fromEntries(Object.entries(fields).filter(([key]) => !names.includes(key)));

const task: KindWriter = {
  type: 'Task',
  async resolve(draft, scope) {
    const { categoryId, misses } = await categoryOf(scope, draft.fields.categoryName as string | undefined);
    return { fields: { ...draft.fields, ...(categoryId ? { categoryId } : {}) }, misses };
  },
  async write(f, scope) {
    return scope.service(TaskService).create(scope.userId, {
      title: f.title,
      timebox: f.timebox,
      categoryId: f.categoryId ?? null,
      dayId: f.date ? await dayId(scope, f.date) : null,
      startTime: f.startTime ?? null,
    });
  },
};

const recurringTask: KindWriter = {
  type: 'Task',
  async resolve(draft, scope) {
    const { categoryId, misses } = await categoryOf(scope, draft.fields.categoryName as string | undefined);
    const start = firstDate(draft.fields.recurrence as string, draft.fields.from as string);
    if (!start) throw new ValidationError('The schedule has no date in the next ten years', [{ path: ['recurrence'], message: 'no date in the next ten years' }]);
    return { fields: { ...withoutNames(draft.fields, 'from'), startDate: start, ...(categoryId ? { categoryId } : {}) }, misses };
  },
  async write(f, scope) {
    return scope.service(TaskService).create(scope.userId, {
      title: f.title,
      timebox: f.timebox,
      categoryId: f.categoryId ?? null,
      dayId: await dayId(scope, f.startDate),
      recurrence: f.recurrence,
      startTime: f.startTime ?? null,
    });
  },
};

const at = (f: F, scope: WriteScope) => (f.time ? instantOf(f.date, f.time, scope.timezone) : null);

const water: KindWriter = {
  type: 'WaterIntake',
  resolve: async (draft) => ({ fields: draft.fields, misses: [] }),
  async write(f, scope) {
    return scope.service(WaterService).log(scope.userId, { dayId: await dayId(scope, f.date), volume: f.volume, time: at(f, scope) });
  },
};

const steps: KindWriter = {
  type: 'StepsEntry',
  resolve: async (draft) => ({ fields: draft.fields, misses: [] }),
  async write(f, scope) {
    return scope.service(StepsService).log(scope.userId, { dayId: await dayId(scope, f.date), steps: f.steps });
  },
};

const sleep: KindWriter = {
  type: 'SleepEntry',
  resolve: async (draft) => ({ fields: draft.fields, misses: [] }),
  async write(f, scope) {
    // A range "23:30-07:00" ends on the day logged; the bedtime is the evening before when it is later than the waking.
    const wakeTime = f.wakeTime ? instantOf(f.date, f.wakeTime, scope.timezone) : null;
    const bedtime = f.bedtime ? instantOf(f.bedtime > (f.wakeTime ?? '') ? addDays(f.date, -1) : f.date, f.bedtime, scope.timezone) : null;
    return scope.service(SleepService).log(scope.userId, { dayId: await dayId(scope, f.date), duration: f.duration, quality: f.quality ?? null, bedtime, wakeTime });
  },
};

const mood: KindWriter = {
  type: 'MoodEntry',
  async resolve(draft, scope) {
    if (draft.fields.energy !== undefined) return { fields: draft.fields, misses: [] };
    // A check-in needs energy too: the day's energy as it stands, else the mood's value (said in the answer).
    const day = await nullIfNotFound(scope.service(DayService).onDate(scope.userId, draft.fields.date as string));
    const energy = day?.energy ?? (draft.fields.mood as number);
    return { fields: { ...draft.fields, energy }, misses: [], assumptions: [day?.energy != null ? `no energy: the day's energy, ${energy}` : `no energy: ${energy}, as the mood`] };
  },
  async write(f, scope) {
    return scope.service(MoodService).log(scope.userId, { dayId: await dayId(scope, f.date), mood: f.mood, energy: f.energy, time: at(f, scope) });
  },
};

const weight: KindWriter = {
  type: 'BodyMeasurement',
  resolve: async (draft) => ({ fields: draft.fields, misses: [] }),
  async write(f, scope) {
    return scope.service(BodyMeasurementService).create(scope.userId, { dayId: await dayId(scope, f.date), weight: f.weight, bodyFat: f.bodyFat ?? null, measuredAt: at(f, scope) });
  },
};

const money: KindWriter = {
  type: 'FinanceTransaction',
  async resolve(draft, scope) {
    const f = draft.fields as F;
    const accounts = (await scope.service(AccountService).list(scope.userId, { page: 1, limit: NAME_READ_LIMIT, isActive: true })).items;
    const assumptions: string[] = [];
    let account: (typeof accounts)[number] | null = null;
    if (f.accountName) {
      const match = matchName(accounts, f.accountName);
      if (!match.found) return { fields: f, misses: [miss('accountName', f.accountName, match.candidates)] };
      account = match.found;
    } else {
      // No account said: the only active one, or the only one in the currency said.
      const fitting = f.currency ? accounts.filter((a) => a.currency === f.currency) : accounts;
      if (fitting.length !== 1) return { fields: f, misses: [miss('accountName', '', fitting.length ? fitting : accounts)] };
      account = fitting[0]!;
      assumptions.push(`no account: "${account.name}", the only ${f.currency ? `${f.currency} ` : ''}account`);
    }
    if (f.currency && f.currency !== account.currency) {
      throw new ValidationError(`The account "${account.name}" keeps ${account.currency}, not ${f.currency}`, [{ path: ['currency'], message: `account ${account.name} is in ${account.currency}` }]);
    }
    return { fields: { ...f, accountId: account.id, accountName: account.name, currency: account.currency }, misses: [], assumptions };
  },
  async write(f, scope) {
    return scope.service(TransactionService).create(scope.userId, { accountId: f.accountId, amount: f.amount, description: f.description, category: f.category ?? null, date: f.date });
  },
};

const training: KindWriter = {
  type: 'TrainingSession',
  async resolve(draft, scope) {
    const misses: NameMiss[] = [];
    const exercises: F[] = [];
    for (const [i, e] of (draft.fields.exercises as F[]).entries()) {
      const wanted = EXERCISE_ALIASES[e.name.toLowerCase()] ?? e.name;
      const found = await scope.service(ExerciseService).search(scope.userId, wanted.split(/\s+/)[0], NAME_READ_LIMIT);
      const match = matchName(found, wanted);
      if (!match.found) misses.push(miss(`exercises[${i}].name`, e.name, match.candidates));
      else exercises.push({ ...e, exerciseId: match.found.id, exercise: match.found.name });
    }
    return { fields: { ...draft.fields, exercises }, misses };
  },
  async write(f, scope) {
    return scope.service(TrainingSessionService).create(scope.userId, {
      dayId: await dayId(scope, f.date),
      split: f.split,
      startTime: at(f, scope),
      exercises: (f.exercises as F[]).map((e) => ({
        exerciseId: e.exerciseId,
        sets: Array.from({ length: e.sets }, (_, n) => ({ setNumber: n + 1, reps: e.reps, load: e.load ?? null })),
      })),
    });
  },
};

const reading: KindWriter = {
  type: 'ReadingSession',
  async resolve(draft, scope) {
    const books = (await scope.service(BookService).list(scope.userId, { page: 1, limit: NAME_READ_LIMIT })).items.map((b) => ({ id: b.id, name: b.title }));
    const match = matchName(books, draft.fields.bookTitle as string);
    if (!match.found) return { fields: draft.fields, misses: [miss('bookTitle', draft.fields.bookTitle as string, match.candidates)] };
    return { fields: { ...draft.fields, bookId: match.found.id, bookTitle: match.found.name }, misses: [] };
  },
  async write(f, scope) {
    return scope.service(ReadingSessionService).create(scope.userId, { dayId: await dayId(scope, f.date), bookId: f.bookId, pagesRead: f.pagesRead, duration: f.duration });
  },
};

const social: KindWriter = {
  type: 'SocialHappening',
  async resolve(draft, scope) {
    const misses: NameMiss[] = [];
    const guests: { id: string; name: string }[] = [];
    for (const name of draft.fields.people as string[]) {
      const found = (await scope.service(PersonService).list(scope.userId, { search: name, page: 1, limit: NAME_READ_LIMIT })).items;
      const match = matchName(found, name);
      if (!match.found) misses.push(miss('people', name, match.candidates));
      else guests.push({ id: match.found.id, name: match.found.name });
    }
    return { fields: { ...draft.fields, guestIds: guests.map((g) => g.id), people: guests.length === (draft.fields.people as string[]).length ? guests.map((g) => g.name) : draft.fields.people }, misses };
  },
  async write(f, scope) {
    const endDate = f.endTime < f.startTime ? addDays(f.date, 1) : f.date;
    return scope.service(SocialHappeningService).create(scope.userId, {
      dayId: await dayId(scope, f.date),
      title: f.title,
      startTime: instantOf(f.date, f.startTime, scope.timezone),
      endTime: instantOf(endDate, f.endTime, scope.timezone),
      location: f.location ?? null,
      guestIds: f.guestIds,
    });
  },
};

/** Every kind's writer. */
export const WRITERS: Readonly<Record<QuickKind, KindWriter>> = {
  task,
  habit: habitWriter,
  habit_entry: habitEntryWriter,
  recurring_task: recurringTask,
  water,
  steps,
  sleep,
  mood,
  weight,
  expense: money,
  income: money,
  training,
  reading,
  social,
};
