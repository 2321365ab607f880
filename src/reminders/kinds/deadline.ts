import { NotFoundError, nullIfNotFound } from '../../core/errors.js';
import { DeadlineService } from '../../projects/deadline.service.js';
import { ProjectTaskService } from '../../projects/project-task.service.js';
import { ProjectService } from '../../projects/project.service.js';
import type { KindContext, ReminderKind, ReminderSpec } from '../reminder-kind.js';
import { clip, inHowLong, shortDateTime } from './local-time.js';
import { beforeMoment, requireTargetId, targetKey, unscheduled } from './targets.js';

/** Deadline statuses that need no reminder any more. */
const CLOSED_DEADLINE = new Set(['done', 'missed']);

interface Due {
  kind: 'deadline' | 'card';
  id: string;
  title: string;
  dueAt: Date;
  /** Done (a deadline done or missed, a card in its board's last column). */
  closed: boolean;
  projectId: string | null;
  priority: string | null;
  key: string;
}

/**
 * The target as something due: a project deadline, else a card (project task) of the user's boards
 * with a due date. Null when it is neither (gone, another user's) or a card without a due date.
 */
async function dueOf(ctx: KindContext, spec: ReminderSpec): Promise<Due | null> {
  if (!spec.targetId) return null;
  const deadline = await nullIfNotFound(ctx.service(DeadlineService).get(spec.userId, spec.targetId));
  if (deadline) {
    return {
      kind: 'deadline',
      id: deadline.id,
      title: deadline.title,
      dueAt: deadline.dueDate,
      closed: CLOSED_DEADLINE.has(deadline.status),
      projectId: deadline.projectId ?? null,
      priority: deadline.priority,
      key: targetKey(deadline.id, deadline.dueDate.toISOString()),
    };
  }
  const [card] = await ctx.service(ProjectTaskService).findOwn(spec.userId, { taskId: spec.targetId }, 1);
  if (!card?.dueDate) return null;
  return {
    kind: 'card',
    id: card.id,
    title: card.title,
    dueAt: card.dueDate,
    closed: card.status === 'done',
    projectId: card.projectId,
    priority: null,
    key: targetKey(card.id, card.dueDate.toISOString()),
  };
}

/**
 * `deadline`: `offsetMinutes` before something is due. The target is a project deadline (`dueDate`) or,
 * just as well, a card of a project board with a due date (its id is the project task's): card due dates
 * count. Keyed `<id>@<due instant>`: a new due date makes a new occurrence and the old one is no longer
 * due. None once the deadline is done or missed, the card is done (in its board's last column) or has
 * lost its due date, or the record was deleted; a card without a due date cannot be given one (refused
 * at once, rule `reminder_target_unscheduled`).
 */
export const deadlineKind: ReminderKind = {
  name: 'deadline',
  target: 'deadline',
  localTime: 'unused',

  async checkTarget(ctx, spec) {
    const id = requireTargetId(spec.targetId, 'deadline');
    if (await nullIfNotFound(ctx.service(DeadlineService).get(spec.userId, id))) return;
    const [card] = await ctx.service(ProjectTaskService).findOwn(spec.userId, { taskId: id }, 1);
    if (!card) throw new NotFoundError('Deadline', { field: 'targetId' });
    if (!card.dueDate) throw unscheduled(`The card "${clip(card.title, 60)}" has no due date: give it one first`);
  },

  async nextOccurrence(ctx, spec, after) {
    const due = await dueOf(ctx, spec);
    if (!due || due.closed) return null;
    return beforeMoment(due.dueAt, spec.offsetMinutes, after, due.key);
  },

  async stillDue(ctx, spec, occurrence) {
    const due = await dueOf(ctx, spec);
    return !!due && !due.closed && due.key === occurrence.key;
  },

  async message(ctx, spec) {
    const due = await dueOf(ctx, spec);
    if (!due) return { title: 'Something is due', body: 'The deadline was moved or removed.' };
    const project = due.projectId ? await nullIfNotFound(ctx.service(ProjectService).get(spec.userId, due.projectId)) : null;
    const lines = [`Due ${shortDateTime(due.dueAt, ctx.timezone)}${spec.offsetMinutes > 0 ? ` (${inHowLong(spec.offsetMinutes)})` : ''}.`];
    const about = [project ? `Project: ${clip(project.title, 60)}` : null, due.priority ? `priority ${due.priority}` : null].filter(Boolean);
    if (about.length) lines.push(about.join(', '));
    const url = due.kind === 'deadline' ? `/api/v1/deadlines/${due.id}` : `/api/v1/projects/${due.projectId}/tasks/${due.id}`;
    return { title: clip(due.title, 80), body: lines.join('\n'), url };
  },
};
