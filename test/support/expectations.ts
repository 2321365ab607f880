import { expect } from 'vitest';
import type { TestApp } from './test-app.js';
import { OutboxEvent } from '../../src/core/events/outbox-event.entity.js';

/** The parts of an HTTP answer the expectations read. */
interface Answer {
  status: number;
  body: any;
  text?: string;
}

export function expectStatus(res: Answer, status: number, code?: string): void {
  expect(res.status, res.text ?? JSON.stringify(res.body)).toBe(status);
  if (code) {
    expect(res.body.ok).toBe(false);
    expect(res.body.error.code).toBe(code);
  }
}

/** 404 NOT_FOUND; with `field`, the details name the body field that referenced the missing record. */
export function expectNotFound(res: Answer, field?: string): void {
  expectStatus(res, 404, 'NOT_FOUND');
  if (field) expect(res.body.error.details.field).toBe(field);
}

/** 400 VALIDATION_ERROR; with `field`, one of `details.errors` has it as the first path element. */
export function expectValidation(res: Answer, field?: string): void {
  expectStatus(res, 400, 'VALIDATION_ERROR');
  if (field) expect(res.body.error.details.errors.map((e: any) => e.path[0])).toContain(field);
}

/** 400 VALIDATION_ERROR from a domain rule (`details.rule`). */
export function expectRule(res: Answer, rule: string): void {
  expectStatus(res, 400, 'VALIDATION_ERROR');
  expect(res.body.error.details.rule).toBe(rule);
}

/** A GraphQL answer with one error of `code`; returns that error. */
export function expectGraphQLError(res: { body: { errors?: any[] }; text?: string }, code: string): any {
  expect(res.body.errors, res.text).toHaveLength(1);
  expect(res.body.errors![0].extensions.code).toBe(code);
  return res.body.errors![0];
}

/**
 * Events gamification records in reaction to the domain's (src/gamification): a domain's tests see
 * them only when they ask for them by name or call allOutboxEvents.
 */
const REACTION_EVENTS = new Set(['level_up', 'achievement_unlocked', 'streak_updated']);

/** Outbox rows of one user, oldest first: of one event name, or else the domain's (no gamification reactions). */
export async function outboxEvents(app: TestApp, userId: string, event?: string): Promise<OutboxEvent[]> {
  const rows = await allOutboxEvents(app, userId);
  return event ? rows.filter((r) => r.event === event) : rows.filter((r) => !REACTION_EVENTS.has(r.event));
}

/** Every outbox row of one user, oldest first, gamification's reactions included. */
export async function allOutboxEvents(app: TestApp, userId: string): Promise<OutboxEvent[]> {
  return app.server.orm.em.fork().find(OutboxEvent, { userId }, { orderBy: { occurredAt: 'asc', id: 'asc' } });
}

/** An undo token as the service answers it (docs/undo.md): a signed, URL-safe `payload.signature`. */
export const UNDO_TOKEN_SHAPE = /^[\w-]+\.[\w-]+$/;
