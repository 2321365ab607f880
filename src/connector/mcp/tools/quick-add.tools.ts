import { z } from 'zod';
import { requiredText } from '../../../core/validation/tool-arguments.js';
import { KIND_AREAS } from '../../../quick-add/draft.js';
import { QUICK_ADD_LOCALES } from '../../../quick-add/dates.js';
import { QuickAddService } from '../../../quick-add/quick-add.service.js';
import { QUICK_TEXT_MAX } from '../../../quick-add/quick-add.types.js';
import { allows, type Scope } from '../../scopes/connector-scopes.js';
import { insufficientScope } from './run-tool.js';
import { ADDITIVE, defineTool, type ConnectorTool } from './tool.js';

const token = z.object({ start: z.number(), end: z.number(), text: z.string(), meaning: z.string(), field: z.string().optional(), value: z.unknown().optional() });

export const quickAddTools: ConnectorTool[] = [
  defineTool({
    name: 'quick_add',
    mirrors: 'Mutation.quickAdd',
    // Its token's undo needs every area's write scope: the tool has no one area (docs/undo.md).
    undoAs: 'quickAdd',
    title: 'Quick add from one line',
    description:
      'Turns one line as the person would type it into one record: a task ("write report tomorrow 9am ~90m #work"), a recurring task ' +
      '("pay rent every month on the 1st"), water, steps, sleep, mood, weight ("water 500ml", "slept 7h20", "mood 7"), an expense or ' +
      'income ("coffee 3.50 eur #food from checking"), a training session ("bench 3x5 80kg"), a reading session ("read 30 pages of Dune") ' +
      'or a meeting with people ("lunch with Anna friday"). dryRun: true says what would be made and writes nothing. The answer lists ' +
      'the line token by token, the defaults filled in and other readings. The scope needed is the area of what the line makes ' +
      '(planning, health, money, journal or people; read for a dry run, write otherwise). A line not understood is an error ' +
      'NOT_UNDERSTOOD with what was.',
    inputSchema: {
      text: requiredText('text', QUICK_TEXT_MAX).describe(`One line, at most ${QUICK_TEXT_MAX} characters.`),
      dryRun: z.boolean().optional().describe('true: write nothing, answer what would be made.'),
      locale: z.enum(QUICK_ADD_LOCALES).optional().describe('How dates are read: en (default) or en-GB (day before month).'),
    },
    outputSchema: {
      kind: z.string(),
      created: z.boolean(),
      summary: z.string(),
      record: z.object({ type: z.string(), id: z.string().nullable(), fields: z.record(z.string(), z.unknown()) }),
      tokens: z.array(token),
      assumptions: z.array(z.string()),
      alternatives: z.array(z.object({ kind: z.string(), summary: z.string(), fields: z.record(z.string(), z.unknown()) })),
    },
    // The area is the line's, known once it is read: checked in `allow` below, before anything is looked up or written.
    area: null,
    annotations: ADDITIVE,
    async run(args, ctx) {
      const answer = await ctx.undoable(args, () =>
        ctx.service(QuickAddService).add(ctx.userId, args, {
          allow(kind, dryRun) {
            const needed = `${KIND_AREAS[kind]}:${dryRun ? 'read' : 'write'}` as Scope;
            if (!allows(ctx.granted, needed)) throw insufficientScope(needed);
          },
        }),
      );
      return {
        kind: answer.kind,
        created: answer.created,
        summary: answer.summary,
        record: answer.record,
        tokens: answer.tokens,
        assumptions: answer.assumptions,
        alternatives: answer.alternatives,
      };
    },
  }),
];
