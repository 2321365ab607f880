import { AppError, type FieldError } from '../../core/errors.js';

/** spec: Brain form submit errors — a missing or ill-typed answer is `VALIDATION` (not VALIDATION_ERROR). */
export class FormValidationError extends AppError {
  constructor(errors: FieldError[]) {
    super('VALIDATION', 400, 'Some answers are missing or not valid', { errors });
  }
}

/** spec: `ALREADY_SUBMITTED` 409 — a one-response form this respondent already answered. */
export class AlreadySubmittedError extends AppError {
  constructor() {
    super('ALREADY_SUBMITTED', 409, 'You have already answered this form');
  }
}

/** spec: `CLOSED` 410 — `closed` set or `closesAt` passed. */
export class FormClosedError extends AppError {
  constructor() {
    super('CLOSED', 410, 'This form is closed');
  }
}
