import { agendaTools } from './agenda.tools.js';
import { brainFormTools } from './brain-forms.tools.js';
import { planningTools } from './planning.tools.js';
import { systemTools } from './system.tools.js';
import { tasksTools } from './tasks.tools.js';
import { trainingTools } from './training.tools.js';
import { healthTools } from './health.tools.js';
import { nutritionTools } from './nutrition.tools.js';
import { journalTools } from './journal.tools.js';
import { readingTools } from './reading.tools.js';
import { habitsTools } from './habits.tools.js';
import { filesTools } from './files.tools.js';
import { brainNoteTools } from './brain-notes.tools.js';
import { socialTools } from './social.tools.js';
import { projectsTools } from './projects.tools.js';
import { financeTools } from './finance.tools.js';
import { gamificationTools } from './gamification.tools.js';
import { remindersTools } from './reminders.tools.js';
import { insightsTools } from './insights.tools.js';
import type { ConnectorTool } from './tool.js';
import { withClientRequestId } from './client-request-id.js';
import { wellnessTools } from './wellness.tools.js';
import { quickAddTools } from './quick-add.tools.js';
import { trashTools } from './trash.tools.js';
import { undoTools } from './undo.tools.js';
import { withUndoToken } from './undo-token.js';
import type { ScopeArea } from '../../scopes/connector-scopes.js';

/** The area of the tool whose write the mutation is (`undoAs`): what undoing its token needs. */
function areaOfUndoMutation(mutation: string): ScopeArea | undefined {
  return TOOL_GROUPS.flat().find((tool) => tool.undoAs === mutation)?.area ?? undefined;
}

/**
 * Every tool the connector offers, one list per domain file (`<domain>.tools.ts`). A new domain adds
 * its file and one entry here; names must be unique (checked when the server is built).
 */
export const TOOL_GROUPS: readonly (readonly ConnectorTool[])[] = [
  systemTools,
  planningTools,
  tasksTools,
  agendaTools,
  gamificationTools,
  wellnessTools,
  healthTools,
  trainingTools,
  nutritionTools,
  journalTools,
  readingTools,
  habitsTools,
  brainFormTools,
  brainNoteTools,
  filesTools,
  socialTools,
  projectsTools,
  financeTools,
  remindersTools,
  quickAddTools,
  insightsTools,
  trashTools,
  undoTools(areaOfUndoMutation),
];

let tools: ConnectorTool[] | undefined;

/**
 * Every tool, each writing one taking a `clientRequestId` (client-request-id.ts) and each undoable one
 * answering its `undoToken` (undo-token.ts, inside the id's run so a kept answer carries it); made once.
 */
export function connectorTools(): ConnectorTool[] {
  if (tools) return tools;
  const all = TOOL_GROUPS.flat();
  const names = new Set<string>();
  for (const tool of all) {
    if (names.has(tool.name)) throw new Error(`Two connector tools are named ${tool.name}`);
    names.add(tool.name);
  }
  return (tools = all.map((tool) => withClientRequestId(withUndoToken(tool))));
}
