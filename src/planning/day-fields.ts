/**
 * For each field of `Day`, the records (entity class names) its answer reads: a write to one of them may
 * change what the field answers, so the day and week subscriptions follow them. Each domain that adds
 * a field to `Day` declares its own beside its loaders; the composition gathers them
 * (src/app/loaders.ts) and `followDayFields` makes the subscriptions follow them.
 */
export type DayFieldSources = Readonly<Record<string, readonly string[]>>;

const DAY_ROW = ['Day'];

/** The fields planning itself answers. */
export const PLANNING_DAY_FIELDS = {
  id: DAY_ROW,
  createdAt: DAY_ROW,
  updatedAt: DAY_ROW,
  weekId: DAY_ROW,
  date: DAY_ROW,
  notes: DAY_ROW,
  minimumMode: DAY_ROW,
  mood: DAY_ROW,
  energy: DAY_ROW,
  sleepHours: DAY_ROW,
  completedAt: DAY_ROW,
  completed: DAY_ROW,
  requiredChecklist: DAY_ROW,
  checklist: ['ChecklistItem'],
  perimeterTasks: ['DayPerimeterTask', 'PerimeterTask'],
  bedtimeTargets: ['Week', 'UserSettings'],
} as const satisfies DayFieldSources;
