import { registerEnumType } from 'type-graphql';

/**
 * The daily measures insights relate, one column each of `insight_days`. Order matters: a same-day pair
 * (lag 0) is tested once, with the earlier metric as the condition, so the habits and inputs come first
 * and the outcomes (mood, energy) last.
 */
export enum InsightMetric {
  sleepHours = 'sleepHours',
  bedtime = 'bedtime',
  steps = 'steps',
  water = 'water',
  trainingSessions = 'trainingSessions',
  trainingLoad = 'trainingLoad',
  readingMinutes = 'readingMinutes',
  habitsDone = 'habitsDone',
  socialHappenings = 'socialHappenings',
  spending = 'spending',
  tasksDone = 'tasksDone',
  tasksDeferred = 'tasksDeferred',
  mood = 'mood',
  energy = 'energy',
}

registerEnumType(InsightMetric, { name: 'InsightMetric', description: 'A daily measure insights relate (see docs/insights.md).' });

/** The connector area whose grant reads a metric's data (an insight needs both of its metrics'). */
export type MetricArea = 'health' | 'planning' | 'journal' | 'people' | 'money';

export interface MetricDefinition {
  key: InsightMetric;
  /** Column of `insight_days`. */
  column: string;
  /** How a sentence names it: "your mood". */
  label: string;
  area: MetricArea;
  /**
   * `measure`: unknown (null) on a day without an entry (sleep, mood); `count`: 0 on a day without one
   * (tasks done, minutes read): a day in the aggregates with nothing read read nothing.
   */
  kind: 'measure' | 'count';
  /** The night before the day (sleep logged on a morning): "On days after you sleep …". */
  night?: boolean;
  /** Thresholds are rounded to this step (7 h, 8,000 steps) so the sentence names a plain number. */
  step: number;
  /** The condition group is at or below the threshold (an early bedtime), not at or above it. */
  lowIsCondition?: boolean;
  /** A value as the sentences write it. */
  format(value: number): string;
  /** "you sleep 7 h or more": the days of the condition group. */
  condition(threshold: number): string;
  /** "your mood is 1.2 points higher": a difference of means of this metric, signed. */
  difference(delta: number): string;
  /** A week's change worth naming (below it, "steady"), besides a 10 % relative change. */
  minChange: number;
  /** Streaks: "logged your mood" (measure) or "read" (count, a day with more than 0). */
  streak: string;
}

const grouped = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const oneDecimal = (value: number) => String(Math.round(value * 10) / 10);
const more = (delta: number, word: [string, string]) => (delta >= 0 ? word[0] : word[1]);
/** Minutes after noon as a clock time: 660 → 23:00, 780 → 01:00. */
export function clockOf(minutesAfterNoon: number): string {
  const minutes = (Math.round(minutesAfterNoon) + 720) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
const plural = (value: number, one: string, many: string) => `${value === 1 ? one : many}`;

export const METRICS: readonly MetricDefinition[] = [
  {
    key: InsightMetric.sleepHours,
    column: 'sleep_hours',
    label: 'sleep',
    area: 'health',
    kind: 'measure',
    night: true,
    step: 0.5,
    format: (v) => `${oneDecimal(v)} h`,
    condition: (t) => `you sleep ${oneDecimal(t)} h or more`,
    difference: (d) => `you sleep ${oneDecimal(Math.abs(d))} h ${more(d, ['more', 'less'])}`,
    minChange: 0.25,
    streak: 'logged your sleep',
  },
  {
    key: InsightMetric.bedtime,
    column: 'bedtime_minutes',
    label: 'bedtime',
    area: 'health',
    kind: 'measure',
    night: true,
    step: 15,
    lowIsCondition: true,
    format: clockOf,
    condition: (t) => `you go to bed by ${clockOf(t)}`,
    difference: (d) => `you go to bed ${Math.round(Math.abs(d))} min ${more(d, ['later', 'earlier'])}`,
    minChange: 15,
    streak: 'logged your bedtime',
  },
  {
    key: InsightMetric.steps,
    column: 'steps',
    label: 'steps',
    area: 'health',
    kind: 'measure',
    step: 500,
    format: (v) => `${grouped.format(v)} steps`,
    condition: (t) => `you walk ${grouped.format(t)} steps or more`,
    difference: (d) => `you walk ${grouped.format(Math.abs(d))} ${more(d, ['more', 'fewer'])} steps`,
    minChange: 500,
    streak: 'logged your steps',
  },
  {
    key: InsightMetric.water,
    column: 'water_ml',
    label: 'water',
    area: 'health',
    kind: 'measure',
    step: 250,
    format: (v) => `${grouped.format(v)} ml`,
    condition: (t) => `you drink ${grouped.format(t)} ml of water or more`,
    difference: (d) => `you drink ${grouped.format(Math.abs(d))} ml ${more(d, ['more', 'less'])} water`,
    minChange: 200,
    streak: 'logged your water',
  },
  {
    key: InsightMetric.trainingSessions,
    column: 'training_sessions',
    label: 'training sessions',
    area: 'health',
    kind: 'count',
    step: 1,
    format: (v) => `${oneDecimal(v)} ${plural(v, 'session', 'sessions')}`,
    condition: (t) => (t <= 1 ? 'you train' : `you train ${t} times or more`),
    difference: (d) => `you train ${oneDecimal(Math.abs(d))} ${more(d, ['more', 'fewer'])} sessions`,
    minChange: 0.2,
    streak: 'trained',
  },
  {
    key: InsightMetric.trainingLoad,
    column: 'training_load',
    label: 'training load',
    area: 'health',
    kind: 'count',
    step: 500,
    format: (v) => `${grouped.format(v)} kg`,
    condition: (t) => `you lift ${grouped.format(t)} kg or more (sets × reps × load)`,
    difference: (d) => `you lift ${grouped.format(Math.abs(d))} kg ${more(d, ['more', 'less'])}`,
    minChange: 500,
    streak: 'lifted',
  },
  {
    key: InsightMetric.readingMinutes,
    column: 'reading_minutes',
    label: 'reading',
    area: 'journal',
    kind: 'count',
    step: 5,
    format: (v) => `${Math.round(v)} min`,
    condition: (t) => (t <= 1 ? 'you read' : `you read ${t} min or more`),
    difference: (d) => `you read ${Math.round(Math.abs(d))} min ${more(d, ['more', 'less'])}`,
    minChange: 5,
    streak: 'read',
  },
  {
    key: InsightMetric.habitsDone,
    column: 'habits_done',
    label: 'habits done',
    area: 'planning',
    kind: 'count',
    step: 1,
    format: (v) => `${oneDecimal(v)} ${plural(v, 'habit', 'habits')}`,
    condition: (t) => `you do ${t} ${plural(t, 'habit', 'habits')} or more`,
    difference: (d) => `you do ${oneDecimal(Math.abs(d))} ${more(d, ['more', 'fewer'])} habits`,
    minChange: 0.5,
    streak: 'did a habit',
  },
  {
    key: InsightMetric.socialHappenings,
    column: 'social_happenings',
    label: 'time with people',
    area: 'people',
    kind: 'count',
    step: 1,
    format: (v) => `${oneDecimal(v)} ${plural(v, 'happening', 'happenings')}`,
    condition: (t) => (t <= 1 ? 'you spend time with people' : `you see people ${t} times or more`),
    difference: (d) => `you see people ${oneDecimal(Math.abs(d))} times ${more(d, ['more', 'less'])}`,
    minChange: 0.2,
    streak: 'saw people',
  },
  {
    key: InsightMetric.spending,
    column: 'spending',
    label: 'spending',
    area: 'money',
    kind: 'count',
    step: 5,
    format: (v) => `${oneDecimal(v)}`,
    condition: (t) => `you spend ${t} or more`,
    difference: (d) => `you spend ${oneDecimal(Math.abs(d))} ${more(d, ['more', 'less'])}`,
    minChange: 5,
    streak: 'spent money',
  },
  {
    key: InsightMetric.tasksDone,
    column: 'tasks_done',
    label: 'tasks done',
    area: 'planning',
    kind: 'count',
    step: 1,
    format: (v) => `${oneDecimal(v)} ${plural(v, 'task', 'tasks')}`,
    condition: (t) => `you finish ${t} ${plural(t, 'task', 'tasks')} or more`,
    difference: (d) => `you finish ${oneDecimal(Math.abs(d))} ${more(d, ['more', 'fewer'])} tasks`,
    minChange: 0.5,
    streak: 'finished a task',
  },
  {
    key: InsightMetric.tasksDeferred,
    column: 'tasks_deferred',
    label: 'tasks deferred',
    area: 'planning',
    kind: 'count',
    step: 1,
    format: (v) => `${oneDecimal(v)} ${plural(v, 'task', 'tasks')}`,
    condition: (t) => (t <= 1 ? 'you defer a task' : `you defer ${t} tasks or more`),
    difference: (d) => `you defer ${oneDecimal(Math.abs(d))} ${more(d, ['more', 'fewer'])} tasks`,
    minChange: 0.5,
    streak: 'deferred a task',
  },
  {
    key: InsightMetric.mood,
    column: 'mood',
    label: 'mood',
    area: 'health',
    kind: 'measure',
    step: 1,
    format: (v) => `${oneDecimal(v)}/10`,
    condition: (t) => `your mood is ${t} or more`,
    difference: (d) => `your mood is ${oneDecimal(Math.abs(d))} ${plural(Math.abs(d), 'point', 'points')} ${more(d, ['higher', 'lower'])}`,
    minChange: 0.5,
    streak: 'logged your mood',
  },
  {
    key: InsightMetric.energy,
    column: 'energy',
    label: 'energy',
    area: 'health',
    kind: 'measure',
    step: 1,
    format: (v) => `${oneDecimal(v)}/10`,
    condition: (t) => `your energy is ${t} or more`,
    difference: (d) => `your energy is ${oneDecimal(Math.abs(d))} ${plural(Math.abs(d), 'point', 'points')} ${more(d, ['higher', 'lower'])}`,
    minChange: 0.5,
    streak: 'logged your energy',
  },
];

export const METRIC_BY_KEY: ReadonlyMap<InsightMetric, MetricDefinition> = new Map(METRICS.map((m) => [m.key, m]));

export function metricOf(key: InsightMetric): MetricDefinition {
  const metric = METRIC_BY_KEY.get(key);
  if (!metric) throw new Error(`unknown insight metric ${key}`);
  return metric;
}
