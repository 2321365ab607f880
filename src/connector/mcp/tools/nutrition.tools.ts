import type { ConnectorTool } from './tool.js';

/** The nutrition tools (issue 25). */
export const nutritionTools: ConnectorTool[] = [];
