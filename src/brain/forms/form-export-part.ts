import type { BrainExportPart } from '../export/brain-export-part.js';
import { nameSlug } from '../databases/name-slug.js';
import { BrainForm } from './brain-form.entity.js';
import { formView } from './form.service.js';

/** One JSON file per form: `forms/<name-slug>-<id8>.json`, with `hasAccessPassword` and never the hash. */
export const formExportPart: BrainExportPart = {
  async write(zip, em, userId) {
    const forms = await em.find(BrainForm, { userId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    for (const form of forms) {
      zip.addBuffer(Buffer.from(JSON.stringify(formView(form), null, 2) + '\n'), `forms/${nameSlug(form.name, 'form')}-${form.id.slice(0, 8)}.json`, { mtime: form.updatedAt });
    }
  },
};
