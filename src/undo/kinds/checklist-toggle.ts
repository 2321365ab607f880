import { ChecklistService } from '../../planning/checklist.service.js';
import { ChecklistItem } from '../../planning/checklist-item.entity.js';
import type { ChecklistKey } from '../../planning/checklist-key.js';
import { requireUnchanged, type UndoKind } from '../undo-kind.js';

export const checklistToggle: UndoKind = {
  kind: 'checklist_toggle',
  mutation: 'toggleChecklistItem',
  async before({ em }, userId, args) {
    // The value a ticked item held, for its tick back (a toggle that unticks forgets it).
    const item = await em.findOne(ChecklistItem, { dayId: args.dayId as string, key: args.key as ChecklistKey, userId }, { fields: ['value'] });
    return { value: item?.value ?? null };
  },
  offer(_scope, _userId, args, result, before) {
    const item = result as ChecklistItem;
    return { recordId: item.id, data: { dayId: args.dayId, key: args.key, value: (before as { value: unknown }).value, version: item.version } };
  },
  async invert(scope, userId, offer) {
    const { dayId, key, value, version } = offer.data as { dayId: string; key: ChecklistKey; value: unknown; version: number };
    const found = await scope.em.findOne(ChecklistItem, { id: offer.recordId, userId }, { fields: ['version'] });
    requireUnchanged(found, offer, 'Checklist item');
    await new ChecklistService(scope.em).toggle(userId, dayId, key, value, { expectedVersion: version });
  },
};
