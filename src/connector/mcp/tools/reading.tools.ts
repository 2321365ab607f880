import type { ConnectorTool } from './tool.js';

/** The reading tools (issue 25). */
export const readingTools: ConnectorTool[] = [];
