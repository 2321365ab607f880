import { serviceFor, type RequestService, type ServiceScope } from '../core/request-services.js';

/**
 * What a reminder can be about (issue 26). The engine (reminder-scanner.ts, channels/) knows nothing of
 * the domains: each kind, in `kinds/`, says when its next occurrence is due and what it says, through the
 * domain services. Kinds are registered in `kinds/index.ts`.
 */
export const REMINDER_KINDS = [
  /** `offsetMinutes` before a task's timebox starts (the task's `startTime` on its day). */
  'task_start',
  /** At `localTime` on a task's day. */
  'task_at_time',
  /** `offsetMinutes` before a project deadline (or a card's due date) is due. */
  'deadline',
  /** `offsetMinutes` before a social happening starts. */
  'happening',
  /** At `localTime` on a person's birthday, every year. */
  'birthday',
  /** At the "in bed" bedtime target each day (the stress-week value in a stress week), `offsetMinutes` before it. */
  'bedtime_in_bed',
  /** At the "lights out" target each day (stress-week value in a stress week), `offsetMinutes` before it. */
  'bedtime_lights_out',
  /** At `localTime` each day, or at the wake target without one: today's perimeter, tasks, training, dinner and deadlines. */
  'morning_brief',
  /** At `localTime` each day: the unfinished checklist and the journal questions. */
  'evening_review',
  /** At `localTime` on each day a habit is due and not yet done (issue 37). */
  'habit',
] as const;
export type ReminderKindName = (typeof REMINDER_KINDS)[number];

export const REMINDER_CHANNELS = ['web_push', 'email', 'push_url'] as const;
export type ReminderChannelName = (typeof REMINDER_CHANNELS)[number];

/** A reminder as a kind sees it (the stored row's fields that matter to it). */
export interface ReminderSpec {
  id: string;
  userId: string;
  kind: ReminderKindName;
  /** The record it is about (task, deadline, happening, person, habit); null for the daily kinds. */
  targetId: string | null;
  /** Minutes before the moment (task start, deadline, happening, bedtime targets); 0 = at it. */
  offsetMinutes: number;
  /** HH:MM in the user's time zone, for the kinds at a time of day (ReminderKind.localTime; rows made before that rule may hold one on other kinds, ignored). */
  localTime: string | null;
}

/** One occurrence of a reminder: when it is due, and a key naming it once and for all (the idempotency key). */
export interface ReminderOccurrence {
  dueAt: Date;
  /** Stable for this occurrence across restarts and instances, e.g. `2026-11-27` or `2026-11-27T07:00`. */
  key: string;
}

/** What a reminder says, on every channel. */
export interface ReminderMessage {
  title: string;
  body: string;
  /** The API resource it is about (e.g. `/api/v1/tasks/<id>`); links are made from it (app-links.ts). */
  url?: string;
}

/** What a kind reads with: a unit of work (the app's parts and an entity manager) and the user's time zone. */
export interface KindContext extends ServiceScope {
  /** The user's IANA time zone. */
  timezone: string;
  /** A domain service on this context's entity manager, made as a resolver's is (serviceFor). */
  service<T>(service: RequestService<T>): T;
}

/** The context of a kind's reads on `scope` (the engine gives each claim a fresh entity manager). */
export function kindContext(scope: ServiceScope, timezone: string): KindContext {
  const ctx: KindContext = { deps: scope.deps, em: scope.em, timezone, service: (service) => serviceFor(ctx, service) };
  return ctx;
}

export type LocalTimeUse = 'required' | 'optional' | 'unused';

export interface ReminderKind {
  name: ReminderKindName;
  /** Whether `targetId` is required (and which record kind it names, for 404s). */
  target: 'task' | 'deadline' | 'happening' | 'person' | 'habit' | null;
  /**
   * Whether the kind rings at `localTime`: `required` (the service refuses a reminder without one),
   * `optional` (a default without one), or `unused` (its moment comes from its target or the bedtime
   * targets, so the service refuses one: it would be stored and ignored). Each kind must say.
   */
  localTime: LocalTimeUse;
  /**
   * Checks that the target exists and is the user's (NOT_FOUND otherwise), before a reminder is stored.
   */
  checkTarget(ctx: KindContext, spec: ReminderSpec): Promise<void>;
  /**
   * The first occurrence due strictly after `after` (null: none any more: the task is done, deleted,
   * has no start time, the deadline passed …). Computed in the user's time zone, so 07:00 stays 07:00
   * across daylight-saving changes. Bounded work (no unbounded loops over dates).
   */
  nextOccurrence(ctx: KindContext, spec: ReminderSpec, after: Date): Promise<ReminderOccurrence | null>;
  /**
   * Whether the occurrence is still worth sending at send time (the task not done or deleted, the
   * happening not cancelled …); a false answer skips it, and the reminder moves on.
   */
  stillDue(ctx: KindContext, spec: ReminderSpec, occurrence: ReminderOccurrence): Promise<boolean>;
  /** What the occurrence says. */
  message(ctx: KindContext, spec: ReminderSpec, occurrence: ReminderOccurrence): Promise<ReminderMessage>;
}
