import type { ConnectorTool } from './tool.js';

/** The journal tools (issue 25). */
export const journalTools: ConnectorTool[] = [];
