import { AppError } from '../core/errors.js';

/** The token's time ran out (docs/undo.md): 410, as a resource that was there and is gone. */
export class UndoExpiredError extends AppError {
  constructor() {
    super('UNDO_EXPIRED', 410, 'This undo token has expired: undo is offered for 10 minutes after a write');
  }
}

/** The record changed since the write (or its trash entry is gone): undoing would overwrite a newer change. */
export class UndoConflictError extends AppError {
  constructor(resource: string, version?: number) {
    super('UNDO_CONFLICT', 409, `The ${resource.toLowerCase()} changed since this write: it cannot be undone`, version === undefined ? undefined : { version });
  }
}
