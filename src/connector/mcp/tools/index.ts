import { agendaTools } from './agenda.tools.js';
import { brainFormTools } from './brain-forms.tools.js';
import { planningTools } from './planning.tools.js';
import { systemTools } from './system.tools.js';
import { tasksTools } from './tasks.tools.js';
import type { ConnectorTool } from './tool.js';
import { wellnessTools } from './wellness.tools.js';

/**
 * Every tool the connector offers, one list per domain file (`<domain>.tools.ts`). A new domain adds
 * its file and one entry here; names must be unique (checked when the server is built).
 */
export const TOOL_GROUPS: readonly (readonly ConnectorTool[])[] = [systemTools, planningTools, tasksTools, wellnessTools, agendaTools, brainFormTools];

export function connectorTools(): ConnectorTool[] {
  const tools = TOOL_GROUPS.flat();
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new Error(`Two connector tools are named ${tool.name}`);
    names.add(tool.name);
  }
  return tools;
}
