import { AppError } from '../core/errors.js';

/** The token's time ran out (docs/undo.md): 410, as a resource that was there and is gone. */
export class UndoExpiredError extends AppError {
  constructor() {
    super('UNDO_EXPIRED', 410, 'This undo token has expired: undo is offered for 10 minutes after a write');
  }
}

/**
 * The record changed since the write (or its trash entry is gone): undoing would overwrite a newer change.
 * `taken`: a deleted record cannot come back because another now holds its unique name or place.
 */
export class UndoConflictError extends AppError {
  constructor(resource: string, version?: number, reason?: 'taken') {
    const name = resource.toLowerCase();
    const message = reason === 'taken' ? `Another record now holds the name or place of this ${name}: its delete cannot be undone` : `The ${name} changed since this write: it cannot be undone`;
    super('UNDO_CONFLICT', 409, message, version === undefined ? undefined : { version });
  }
}
