import { BrainRecord } from '../../brain/databases/brain-record.entity.js';
import { deleteRecord } from '../../brain/databases/record.service.js';
import { requireUnchanged, type UndoKind } from '../undo-kind.js';

/**
 * The owner's answer to their own form: the record it made goes to the trash (docs/trash.md), as its
 * delete would; a one-response form takes an answer again. Refused when the record was edited since.
 */
export const formSubmit: UndoKind = {
  kind: 'brain_form_submit',
  mutation: 'submitBrainForm',
  offer(_scope, _userId, _args, result) {
    const { record } = result as { record: { id: string; databaseId: string; version: number } };
    return { recordId: record.id, data: { databaseId: record.databaseId, version: record.version } };
  },
  async invert({ em }, userId, offer) {
    requireUnchanged(await em.findOne(BrainRecord, { id: offer.recordId, userId }, { fields: ['version'] }), offer, 'Brain record');
    await deleteRecord(em, userId, offer.data.databaseId as string, offer.recordId);
  },
};
