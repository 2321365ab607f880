import type { ErrorBody } from '../core/errors.js';

/**
 * The documented envelopes: `{ ok: true, data, meta? }` and `{ ok: false, error: { code, message, details? } }`.
 * A GraphQL page `{ items, meta }` becomes `data: items` with a top-level `meta` (operations.md).
 */
export function successEnvelope(payload: unknown): Record<string, unknown> {
  if (isPage(payload)) return { ok: true, data: payload.items, meta: payload.meta };
  return { ok: true, data: payload ?? null };
}

export function errorEnvelope(error: ErrorBody): Record<string, unknown> {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.details !== undefined) body.details = error.details;
  return { ok: false, error: body };
}

export function errorResponse(error: ErrorBody, headers: Record<string, string> = {}): Response {
  return Response.json(errorEnvelope(error), { status: error.status, headers });
}

function isPage(value: unknown): value is { items: unknown[]; meta: Record<string, unknown> } {
  if (!value || typeof value !== 'object') return false;
  const keys = Object.keys(value);
  const page = value as { items?: unknown; meta?: { page?: unknown; limit?: unknown; total?: unknown } };
  return (
    keys.length === 2 &&
    Array.isArray(page.items) &&
    typeof page.meta === 'object' &&
    page.meta !== null &&
    typeof page.meta.page === 'number' &&
    typeof page.meta.total === 'number'
  );
}
