import type { ConnectorTool } from './tool.js';

/** The files tools (issue 25). */
export const filesTools: ConnectorTool[] = [];
