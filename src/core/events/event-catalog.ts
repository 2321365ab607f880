/**
 * The spec's event catalog: the only names a webhook may subscribe to, each with exactly the `data`
 * fields the spec lists. Typing the payloads here keeps every emitter honest.
 */
export interface EventPayloads {
  task_completed: { taskId: string; title: string; completedAt: string };
  task_deferred: { taskId: string; title: string; nextStep: string; deferredAt: string };
  task_created: { taskId: string; title: string; createdAt: string };
  training_logged: { sessionId: string; split: string; loggedAt: string };
  training_updated: { sessionId: string; updatedAt: string };
  checklist_completed: { dayId: string; itemKey: string; completedAt: string };
  cardio_logged: { sessionId: string; loggedAt: string };
  water_logged: { intakeId: string; amount: number; loggedAt: string };
  meditation_logged: { sessionId: string; duration: number; loggedAt: string };
  day_completed: { dayId: string; completedAt: string };
  minimum_mode_toggled: { dayId: string; minimumMode: boolean; toggledAt: string };
  achievement_unlocked: { achievementId: string; achievementKey: string; unlockedAt: string };
  level_up: { newLevel: number; leveledUpAt: string };
  streak_updated: { streakType: string; currentStreak: number; updatedAt: string };
  friend_added: { friendId: string; addedAt: string };
  message_received: { messageId: string; receivedAt: string };
  /** Issue 37 (an addition to the spec's catalog): an entry of one of the person's habits was logged. */
  habit_logged: { habitId: string; entryId: string; dayId: string; date: string; value: number; loggedAt: string };
  /** Issue 37: a habit's current streak changed (days, or weeks and months for quotas): at a write, or a passing day (the streak sweep). */
  habit_streak_updated: { habitId: string; currentStreak: number; longestStreak: number; updatedAt: string };
  /** Issue 38 (an addition to the spec's catalog): a write was undone (docs/undo.md); `kind` names the write undone. */
  write_undone: { kind: string; recordId: string; undoneAt: string };
  brain_form_submitted: {
    formId: string;
    formName: string;
    publicSlug: string | null;
    databaseId: string;
    recordId: string;
    values: Record<string, unknown>;
    respondentName: string | null;
    quiz: { score: number; max: number; pct: number } | null;
    submittedAt: string;
  };
}

export type EventName = keyof EventPayloads;

export const EVENT_NAMES = [
  'task_completed',
  'task_deferred',
  'task_created',
  'training_logged',
  'training_updated',
  'checklist_completed',
  'cardio_logged',
  'water_logged',
  'meditation_logged',
  'day_completed',
  'minimum_mode_toggled',
  'achievement_unlocked',
  'level_up',
  'streak_updated',
  'friend_added',
  'message_received',
  'brain_form_submitted',
  'habit_logged',
  'habit_streak_updated',
  'write_undone',
] as const satisfies readonly EventName[];

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}
