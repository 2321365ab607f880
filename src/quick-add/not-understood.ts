import { AppError } from '../core/errors.js';
import type { Alternative } from './draft.js';
import type { Token } from './spans.js';

/**
 * 422 NOT_UNDERSTOOD: the line (or a name in it: a category, an account, a book, a person, an
 * exercise, a habit) was not understood. Nothing was written; `details` carry what was understood,
 * token by token, the tokens that were not, and candidates where a name fits several records or none.
 */
export class NotUnderstoodError extends AppError {
  constructor(message: string, details: { text: string; tokens: Token[]; unknown: Token[]; kind?: string; candidates?: { id: string; name: string }[]; alternatives?: Alternative[] }) {
    super('NOT_UNDERSTOOD', 422, message, details as unknown as Record<string, unknown>);
  }
}
