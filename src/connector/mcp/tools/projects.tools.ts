import type { ConnectorTool } from './tool.js';

/** The projects tools (issue 25). */
export const projectsTools: ConnectorTool[] = [];
