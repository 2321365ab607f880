import type { ConnectorTool } from './tool.js';

/** The health tools (issue 25). */
export const healthTools: ConnectorTool[] = [];
