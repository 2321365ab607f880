import { z } from 'zod';
import { AgendaService } from '../../../agenda/agenda.service.js';
import { AGENDA_ENTRY_AREAS } from '../../scopes/answer-areas.js';
import { SCOPE_AREAS } from '../../scopes/connector-scopes.js';
import { isoDateTime } from './outputs.js';
import { defineTool, READ_ONLY, type ConnectorTool } from './tool.js';

export const agendaTools: ConnectorTool[] = [
  defineTool({
    name: 'agenda_range',
    title: 'Read the agenda',
    description:
      'Everything planned or logged between `start` and `end` (ISO 8601; a date or a datetime without offset is read in the user\'s time zone; at most 366 days): tasks, training, mobility and cardio sessions, reading, meditation, social happenings, deadlines, project task due dates and transactions, sorted by start; only the entries of the areas this connection was granted (each says its `area`). Transactions are only recurring ones and large expenses unless `showAllTransactions` is true.',
    inputSchema: {
      start: z.string().min(1).describe('ISO 8601 date or datetime.'),
      end: z.string().min(1).describe('ISO 8601 date or datetime, after start.'),
      showAllTransactions: z.boolean().optional(),
    },
    outputSchema: {
      entries: z.array(
        z.object({
          type: z.string(),
          area: z.enum(SCOPE_AREAS).describe('The area the entry belongs to: only entries of areas this connection was granted are answered.'),
          id: z.string(),
          title: z.string(),
          start: isoDateTime,
          end: isoDateTime.nullable(),
          allDay: z.boolean(),
          sourceId: z.string(),
        }),
      ),
    },
    area: 'planning',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const entries = await AgendaService.range(ctx.em, ctx.userId, args);
      return {
        entries: entries.map((e) => ({ type: e.type, area: AGENDA_ENTRY_AREAS[e.type], id: e.id, title: e.title, start: e.start.toISOString(), end: e.end?.toISOString() ?? null, allDay: e.allDay, sourceId: e.sourceId })),
      };
    },
  }),
];
