/** Dates a series may leave out (EXDATE): deleting that many single occurrences is the cap. */
export const RECURRENCE_EXCEPTIONS_MAX = 1000;
