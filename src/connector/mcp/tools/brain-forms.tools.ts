import { z } from 'zod';
import { given } from '../../../core/given-args.js';
import { deleteForm, listForms, makeForm, publishForm, updateForm } from '../../../brain/forms/form.service.js';
import { submitOwnForm } from '../../../brain/forms/form-submit.service.js';
import { isoDateTime } from './outputs.js';
import { ADDITIVE, defineTool, READ_ONLY, REMOVES, SETS_STATE, type ConnectorTool } from './tool.js';

/** A form as every surface answers it (form.service.ts formView); config and fields stay open objects. */
const formShape = {
  id: z.string(),
  name: z.string(),
  databaseId: z.string(),
  config: z.looseObject({ hasAccessPassword: z.boolean() }),
  hasAccessPassword: z.boolean(),
  syncFields: z.boolean(),
  published: z.boolean(),
  publicSlug: z.string().nullable(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
};
const databaseOut = z.looseObject({ id: z.string(), name: z.string(), properties: z.array(z.looseObject({})) });
const formEditorShape = { ...formShape, fields: z.array(z.looseObject({ key: z.string() })), database: databaseOut };

/**
 * A form's `config` as operations.md fixes it; the form service checks every rule (the same as
 * `POST /brain/forms`), so the schema only tells the assistant the shape.
 */
const config = z
  .object({
    description: z.string().optional(),
    fields: z
      .array(
        z
          .object({
            key: z.string(),
            label: z.string(),
            type: z.enum(['text', 'long_text', 'number', 'email', 'select', 'multi_select', 'checkbox', 'date', 'rating']),
            required: z.boolean().optional(),
            options: z.array(z.string()).optional(),
            correct: z.unknown().optional().describe('Makes the form a quiz: the right answer.'),
            points: z.number().optional(),
          })
          .passthrough(),
      )
      .optional(),
    thankYouMessage: z.string().optional(),
    showQuizScore: z.boolean().optional(),
    collectRespondentName: z.boolean().optional(),
    accessPassword: z.string().optional(),
    oneResponsePerPerson: z.boolean().optional(),
    closed: z.boolean().optional(),
    closesAt: z.string().optional().describe('ISO 8601.'),
  })
  .passthrough();


export const brainFormTools: ConnectorTool[] = [
  defineTool({
    name: 'brain_form_list',
    title: 'List Brain forms',
    description: "The user's Brain forms with their database, published state and public slug.",
    inputSchema: {},
    outputSchema: { forms: z.array(z.object(formShape)) },
    area: 'journal',
    annotations: READ_ONLY,
    async run(_args, ctx) {
      return { forms: await listForms(ctx.em, ctx.userId) };
    },
  }),
  defineTool({
    name: 'brain_form_make',
    title: 'Make a Brain form',
    description:
      'A new form over one of the user\'s Brain databases (`databaseId`) or a new database (`createDatabase: { name }`), with an optional `config` (fields, quiz answers, password, one response per person, closing).',
    inputSchema: {
      name: z.string(),
      databaseId: z.string().uuid().optional(),
      createDatabase: z.object({ name: z.string() }).optional(),
      config: config.optional(),
    },
    outputSchema: formEditorShape,
    area: 'journal',
    annotations: ADDITIVE,
    async run(args, ctx) {
      return makeForm(ctx.em, ctx.userId, given(args));
    },
  }),
  defineTool({
    name: 'brain_form_update',
    title: 'Update a Brain form',
    description: "Renames a form or replaces its `config` (the whole config, as in PATCH /brain/forms/:id).",
    inputSchema: { formId: z.string().uuid(), name: z.string().optional(), config: config.optional() },
    outputSchema: formEditorShape,
    area: 'journal',
    annotations: SETS_STATE,
    async run({ formId, ...changes }, ctx) {
      return updateForm(ctx.em, ctx.userId, formId, given(changes));
    },
  }),
  defineTool({
    name: 'brain_form_publish',
    title: 'Publish or unpublish a Brain form',
    description: 'Publishing assigns the form its `publicSlug` (its public page is BASE_URL/brain/f/<publicSlug>); unpublishing hides it.',
    inputSchema: { formId: z.string().uuid(), published: z.boolean() },
    outputSchema: formShape,
    area: 'journal',
    annotations: SETS_STATE,
    async run({ formId, published }, ctx) {
      return publishForm(ctx.em, ctx.userId, formId, { published });
    },
  }),
  defineTool({
    name: 'brain_form_submit',
    title: 'Submit an answer to a Brain form',
    description:
      'Answers one of the user\'s forms with `values` keyed by field key: the same rules as every submit (required fields, closing, one response per person), a quiz is scored, a record is created and brain_form_submitted is recorded.',
    inputSchema: { formId: z.string().uuid(), values: z.record(z.string(), z.unknown()), respondentName: z.string().optional() },
    outputSchema: {
      form: z.object(formShape),
      database: databaseOut,
      record: z.looseObject({ id: z.string() }),
      quiz: z.object({ score: z.number(), max: z.number(), pct: z.number() }).optional(),
      thankYouMessage: z.string(),
    },
    area: 'journal',
    annotations: ADDITIVE,
    async run({ formId, values, respondentName }, ctx) {
      return submitOwnForm(ctx.em, ctx.userId, formId, { values, respondentName });
    },
  }),
  defineTool({
    name: 'brain_form_delete',
    title: 'Delete a Brain form',
    description: 'Deletes the form; its database and the records its answers made stay.',
    inputSchema: { formId: z.string().uuid() },
    outputSchema: { id: z.string(), deleted: z.literal(true) },
    area: 'journal',
    annotations: REMOVES,
    async run({ formId }, ctx) {
      return deleteForm(ctx.em, ctx.userId, formId);
    },
  }),
];
