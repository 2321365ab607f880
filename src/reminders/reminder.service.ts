import { deleteReported } from '../core/live/deletion-changes.queries.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FilterQuery } from '@mikro-orm/core';
import { findPage } from '../core/database/find-page.js';
import { deleted, type Deleted } from '../core/deleted.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AppError, NotFoundError, RuleViolationError, ValidationError } from '../core/errors.js';
import { DAILY_REMINDER_KINDS } from './daily-kinds.js';
import type { Page, PageArgs } from '../core/pagination.js';
import type { AppDeps } from '../core/context.js';
import { serviceFor, type ServiceScope } from '../core/request-services.js';
import { SettingsService } from '../settings/settings.service.js';
import { REMINDER_KIND_IMPLEMENTATIONS } from './kinds/index.js';
import { kindContext, type KindContext, type ReminderChannelName, type ReminderKind, type ReminderKindName, type ReminderOccurrence, type ReminderSpec } from './reminder-kind.js';
import { ReminderDelivery, ReminderDeliveryStatus } from './reminder-delivery.entity.js';
import { Reminder } from './reminder.entity.js';

/** Reminders per user (a bound on the list and on the scanner's work per user). */
export const REMINDERS_MAX = 500;

export interface ReminderFilter extends PageArgs {
  kind?: ReminderKindName | null;
  active?: boolean | null;
}

export interface NewReminder {
  kind: ReminderKindName;
  targetId?: string | null;
  channel: ReminderChannelName;
  offsetMinutes?: number | null;
  localTime?: string | null;
}

/** Absent (undefined) leaves a field as it is; `localTime: null` clears it. */
export interface ReminderChanges {
  channel?: ReminderChannelName;
  offsetMinutes?: number;
  localTime?: string | null;
  active?: boolean;
}

export interface DeliveryFilter extends PageArgs {
  status?: ReminderDeliveryStatus | null;
}

/** The kind's implementation, or a 400 naming `kind` when it is not available (yet). */
export function kindOf(name: ReminderKindName): ReminderKind {
  const kind = REMINDER_KIND_IMPLEMENTATIONS[name];
  if (!kind) throw new RuleViolationError('reminder_kind', `Reminders of kind ${name} are not available`, ['kind']);
  return kind;
}

export function specOf(reminder: Reminder): ReminderSpec {
  return {
    id: reminder.id,
    userId: reminder.userId,
    kind: reminder.kind,
    targetId: reminder.targetId ?? null,
    offsetMinutes: reminder.offsetMinutes,
    localTime: reminder.localTime ?? null,
  };
}

/**
 * A user's reminders (GraphQL, the Session API and the assistant connector's tools call these). Every
 * read and write is scoped by owner: another user's reminder, or a target that is not the caller's,
 * answers NOT_FOUND exactly like a missing one. Creating or re-timing a reminder asks its kind for the
 * first occurrence from now, which sets `nextDueAt`; a reminder that would never be sent (a task already
 * done, a day passed) is refused (400, `details.rule: "reminder_no_occurrence"`), never stored inactive.
 */
export class ReminderService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppDeps,
  ) {}

  static forRequest(scope: ServiceScope): ReminderService {
    return new ReminderService(scope.em, scope.deps);
  }

  /** The context the reminder's kind reads with: this unit of work, in the user's time zone. */
  private async kindContextOf(userId: string): Promise<KindContext> {
    const scope = { deps: this.deps, em: this.em };
    return kindContext(scope, await serviceFor(scope, SettingsService).timezoneOf(userId));
  }

  list(userId: string, filter: ReminderFilter = {}): Promise<Page<Reminder>> {
    const where: FilterQuery<Reminder> = { userId };
    if (filter.kind) where.kind = filter.kind;
    if (filter.active !== undefined && filter.active !== null) where.active = filter.active;
    return findPage(this.em, Reminder, where, { createdAt: 'asc', id: 'asc' }, filter);
  }

  async get(userId: string, reminderId: string): Promise<Reminder> {
    const reminder = await this.em.findOne(Reminder, { id: reminderId, userId });
    if (!reminder) throw new NotFoundError('Reminder');
    return reminder;
  }

  async create(userId: string, input: NewReminder, now = new Date()): Promise<Reminder> {
    const kind = kindOf(input.kind);
    if (kind.target && !input.targetId) throw fieldError('targetId', `targetId is required for ${input.kind} reminders (the ${kind.target})`);
    if (!kind.target && input.targetId) throw fieldError('targetId', `${input.kind} reminders take no targetId`);
    checkLocalTime(kind, input.localTime);
    const count = await this.em.count(Reminder, { userId });
    if (count >= REMINDERS_MAX) throw new RuleViolationError('reminder_limit', `A user can have at most ${REMINDERS_MAX} reminders`);
    await this.refuseSecondDaily(userId, input.kind);
    const reminder = this.em.create(Reminder, {
      userId,
      kind: input.kind,
      targetId: input.targetId ?? null,
      channel: input.channel,
      offsetMinutes: input.offsetMinutes ?? 0,
      localTime: input.localTime ?? null,
      active: true,
    });
    const spec = specOf(reminder);
    const ctx = await this.kindContextOf(userId);
    await kind.checkTarget(ctx, spec);
    schedule(reminder, await kind.nextOccurrence(ctx, spec, now));
    try {
      await this.em.flush();
    } catch (error) {
      // Two creations at once: the partial unique index keeps one; the other is refused alike.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      this.em.clear();
      await this.refuseSecondDaily(userId, input.kind);
      throw error;
    }
    return reminder;
  }

  /** 409 REMINDER_EXISTS when the person already holds a reminder of this daily kind (change that one instead). */
  private async refuseSecondDaily(userId: string, kind: ReminderKindName): Promise<void> {
    if (!DAILY_REMINDER_KINDS.includes(kind)) return;
    const existing = await this.em.findOne(Reminder, { userId, kind }, { fields: ['id'] });
    if (!existing) return;
    throw new AppError('REMINDER_EXISTS', 409, `There is already a ${kind} reminder: one of each daily kind per person; change it (PATCH /reminders/${existing.id}) instead`, { kind, reminderId: existing.id, field: 'kind' });
  }

  async update(userId: string, reminderId: string, changes: ReminderChanges, now = new Date()): Promise<Reminder> {
    const reminder = await this.get(userId, reminderId);
    const kind = kindOf(reminder.kind);
    // The time given is checked, else the stored one; a kind that takes none only refuses a new one (a
    // row stored with one before that rule keeps it, readable and ignored).
    const localTime = changes.localTime !== undefined || kind.localTime === 'unused' ? changes.localTime : reminder.localTime;
    checkLocalTime(kind, localTime);
    const retimed =
      (changes.offsetMinutes !== undefined && changes.offsetMinutes !== reminder.offsetMinutes) ||
      (changes.localTime !== undefined && changes.localTime !== reminder.localTime) ||
      (changes.active === true && !reminder.active);
    if (changes.channel !== undefined) reminder.channel = changes.channel;
    if (changes.offsetMinutes !== undefined) reminder.offsetMinutes = changes.offsetMinutes;
    if (changes.localTime !== undefined) reminder.localTime = changes.localTime;
    if (changes.active !== undefined) reminder.active = changes.active;
    if (retimed && reminder.active) {
      const spec = specOf(reminder);
      const ctx = await this.kindContextOf(userId);
      schedule(reminder, await kind.nextOccurrence(ctx, spec, now));
    }
    await this.em.transactional(async (em) => {
      // An occurrence already scheduled at the old time (claimed ahead, or held by quiet hours) and not yet
      // being sent is dropped: the new time decides.
      if (retimed) await deleteReported(em, userId, ReminderDelivery, { reminderId: reminder.id, userId, status: ReminderDeliveryStatus.pending, attempts: 0 });
      await em.flush();
    });
    return reminder;
  }

  /** Permanent, with its delivery history (the database cascades); an occurrence being sent is not sent. */
  async delete(userId: string, reminderId: string): Promise<Deleted> {
    const reminder = await this.get(userId, reminderId);
    await this.em.transactional(async (em) => {
      await deleteReported(em, userId, Reminder, { id: reminder.id, userId });
    });
    return deleted(reminderId, 'Reminder');
  }

  /** The occurrences made so far, most recent due first. */
  async deliveries(userId: string, reminderId: string, filter: DeliveryFilter = {}): Promise<Page<ReminderDelivery>> {
    const reminder = await this.get(userId, reminderId);
    const where: FilterQuery<ReminderDelivery> = { reminderId: reminder.id, userId };
    if (filter.status) where.status = filter.status;
    return findPage(this.em, ReminderDelivery, where, { dueAt: 'desc', id: 'desc' }, filter);
  }
}

/** 400 naming `localTime` when the kind needs one and has none, or takes none (ReminderKind.localTime) and is given one. */
function checkLocalTime(kind: ReminderKind, localTime: string | null | undefined): void {
  if (kind.localTime === 'required' && !localTime) throw fieldError('localTime', `localTime is required for ${kind.name} reminders`);
  if (kind.localTime === 'unused' && localTime) {
    throw fieldError('localTime', `${kind.name} reminders take no localTime: they ring offsetMinutes before their moment`);
  }
}

function fieldError(field: string, message: string): ValidationError {
  return new ValidationError(message, [{ path: [field], message }]);
}

function schedule(reminder: Reminder, next: ReminderOccurrence | null): void {
  if (!next) {
    throw new RuleViolationError(
      'reminder_no_occurrence',
      'This reminder would never be sent: its moment has passed, or its target is done or has no time (a task needs a day; task_start needs a startTime)',
    );
  }
  reminder.nextDueAt = next.dueAt;
  reminder.nextOccurrenceKey = next.key;
}
