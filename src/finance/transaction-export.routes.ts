import { Router } from 'express';
import type { AppDeps } from '../core/context.js';
import { serviceFor } from '../core/request-services.js';
import { CSV_OPTIONS, safeCell } from '../core/csv-cell.js';
import { ValidationError, type FieldError } from '../core/errors.js';
import { isLocalDate } from '../core/scalars.js';
import { requireUuid, sessionRoute } from '../http/session-route.js';
import type { FinanceTransaction } from './finance-transaction.entity.js';
import { TransactionService, type TransactionFilter } from './transaction.service.js';
import type { HandWrittenRoutes } from '../http/hand-written-routes.js';
import { TRANSACTION_EXPORT_PATHS } from './transaction-export.openapi.js';

const COLUMNS = ['id', 'date', 'accountId', 'amount', 'description', 'category', 'recurring', 'socialHappeningId'];

function csvRows(rows: FinanceTransaction[]): string[][] {
  return rows.map((t) => [
    t.id,
    t.date,
    t.accountId,
    t.amount, // exact numeric text from PostgreSQL, e.g. -12.50: a number, never a formula
    safeCell(t.description),
    safeCell(t.category),
    t.recurring ? 'true' : 'false',
    t.socialHappeningId ?? '',
  ]);
}

/** The export's filters, from the query string, checked like the JSON list's. */
function readFilter(query: Record<string, unknown>): TransactionFilter {
  const errors: FieldError[] = [];
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined || value === '') return undefined;
    if (typeof value !== 'string') {
      errors.push({ path: [name], message: `${name} must be given once` });
      return undefined;
    }
    return value;
  };
  const format = text('format') ?? 'csv';
  if (format !== 'csv') errors.push({ path: ['format'], message: 'format must be csv' });
  const filter: TransactionFilter = {};
  const accountId = text('accountId');
  if (accountId) {
    try {
      filter.accountId = requireUuid(accountId, 'accountId');
    } catch (error) {
      errors.push(...((error as ValidationError).details?.errors as FieldError[]));
    }
  }
  for (const name of ['startDate', 'endDate'] as const) {
    const value = text(name);
    if (value === undefined) continue;
    if (isLocalDate(value)) filter[name] = value;
    else errors.push({ path: [name], message: `${name} must be a date as YYYY-MM-DD` });
  }
  const category = text('category');
  if (category) filter.category = category;
  if (errors.length) throw new ValidationError('Invalid export query', errors);
  return filter;
}

/**
 * GET /transactions/export?format=csv (beyond the spec): the transactions the list's filters match,
 * all of them, newest first, as a CSV file for a spreadsheet (csv-stringify quotes per RFC 4180).
 */
export function transactionExportRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get(
    '/transactions/export',
    sessionRoute(deps, async ({ ctx, userId }, req, res) => {
      const filter = readFilter(req.query as Record<string, unknown>);
      const rows = await serviceFor(ctx, TransactionService).all(userId, filter);
      const { stringify } = await import('csv-stringify/sync'); // loaded by the first export, not at start-up (issue 18)
      const csv = stringify([COLUMNS, ...csvRows(rows)], CSV_OPTIONS);
      const day = new Date().toISOString().slice(0, 10);
      res
        .status(200)
        .set({
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="transactions-${day}.csv"`,
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
        })
        .send(csv);
    }),
  );
  return router;
}

/** These routes with their description (src/app/hand-written-routes.ts mounts them). */
export const transactionExportRouteGroup: HandWrittenRoutes = { router: transactionExportRoutes, openapi: TRANSACTION_EXPORT_PATHS };
