import type { ReminderKind, ReminderKindName } from '../reminder-kind.js';

/**
 * Every reminder kind the engine knows, by name (one module per kind in this folder). A kind missing
 * here cannot be stored: the reminder service refuses it.
 */
export const REMINDER_KIND_IMPLEMENTATIONS: Partial<Record<ReminderKindName, ReminderKind>> = {};
