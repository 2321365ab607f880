import { RuleViolationError } from '../errors.js';

/** SQLSTATE of the `enforce_row_cap` trigger (migration 20261124163000): a parent already holds its cap. */
export const ROW_CAP_SQLSTATE = 'LPCAP';

/**
 * The trigger's refusal as the 400 VALIDATION_ERROR it stands for (`details.rule` from its detail, the
 * message from its hint, the field from its column), or null for any other error. The ORM wraps the
 * driver's error and copies these fields onto its own exception.
 */
export function rowCapViolation(error: unknown): RuleViolationError | null {
  const fields = error as { code?: unknown; detail?: unknown; hint?: unknown; column?: unknown } | null;
  if (fields?.code !== ROW_CAP_SQLSTATE) return null;
  const field = typeof fields.column === 'string' && fields.column ? [fields.column] : [];
  return new RuleViolationError(String(fields.detail), String(fields.hint), field);
}
