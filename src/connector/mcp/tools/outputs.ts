import { z } from 'zod';
import { TaskStatus } from '../../../tasks/task-status.js';

/**
 * Answer shapes several tools share. A tool's `outputSchema` is strict at the top (the JSON schema says
 * `additionalProperties: false`, and the SDK's client checks it), so each names exactly what it answers.
 */
export const isoDateTime = z.string().describe('ISO 8601 date-time (UTC).');
export const isoDate = z.string().describe('YYYY-MM-DD.');

export const taskOut = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  status: z.enum(Object.values(TaskStatus) as [TaskStatus, ...TaskStatus[]]),
  timebox: z.number(),
  nextStep: z.string().nullable(),
  categoryId: z.string().nullable(),
  dayId: z.string().nullable(),
  startTime: z.string().nullable().describe("HH:MM in the user's time zone, when the timebox starts on its day."),
  recurrence: z.string().nullable().describe('The RRULE of the series this task is the first of (null on occurrences and single tasks).'),
  seriesId: z.string().nullable().describe("The first task of the task's series (its own id on the first); null outside a series."),
  occurrenceDate: isoDate.nullable().describe('The date of this task in its series.'),
  completedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
  version: z.number().describe('Goes up with every change: send it back as expectedVersion so a change made meanwhile is not overwritten.'),
});

export const pageMetaOut = z.object({ page: z.number(), limit: z.number(), total: z.number() });

/** `{ id, message }`: what a delete answers on every surface. */
export const deletedOut = { id: z.string(), message: z.string() };
