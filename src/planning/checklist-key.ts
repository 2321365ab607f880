import { registerEnumType } from 'type-graphql';

/** Spec: Checklist item keys; WEIGHT_LOG is accepted by the toggle endpoint only. */
export enum ChecklistKey {
  MAKE_BED = 'MAKE_BED',
  WATER = 'WATER',
  GYM = 'GYM',
  MOBILITY = 'MOBILITY',
  CARDIO = 'CARDIO',
  COOK = 'COOK',
  READING = 'READING',
  MEDITATION = 'MEDITATION',
  JOURNAL = 'JOURNAL',
  PERIMETER = 'PERIMETER',
  WEIGHT_LOG = 'WEIGHT_LOG',
}

registerEnumType(ChecklistKey, { name: 'ChecklistKey', description: 'A daily checklist item.' });

/** Normal mode: the full 10-item checklist (spec rule 6). */
export const NORMAL_CHECKLIST: readonly ChecklistKey[] = [
  ChecklistKey.MAKE_BED,
  ChecklistKey.WATER,
  ChecklistKey.GYM,
  ChecklistKey.MOBILITY,
  ChecklistKey.CARDIO,
  ChecklistKey.COOK,
  ChecklistKey.READING,
  ChecklistKey.MEDITATION,
  ChecklistKey.JOURNAL,
  ChecklistKey.PERIMETER,
];

/** Minimum mode: the core checklist only (make bed, water, perimeter). */
export const MINIMUM_CHECKLIST: readonly ChecklistKey[] = [ChecklistKey.MAKE_BED, ChecklistKey.WATER, ChecklistKey.PERIMETER];

export function requiredChecklist(minimumMode: boolean): readonly ChecklistKey[] {
  return minimumMode ? MINIMUM_CHECKLIST : NORMAL_CHECKLIST;
}

export const CHECKLIST_ORDER: readonly ChecklistKey[] = [...NORMAL_CHECKLIST, ChecklistKey.WEIGHT_LOG];
