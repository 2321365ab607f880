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
  completedAt: isoDateTime.nullable(),
  createdAt: isoDateTime,
});

export const pageMetaOut = z.object({ page: z.number(), limit: z.number(), total: z.number() });

/** `{ id, message }`: what a delete answers on every surface. */
export const deletedOut = { id: z.string(), message: z.string() };
