import type { ConnectorTool } from './tool.js';

/** The gamification tools (issue 25). */
export const gamificationTools: ConnectorTool[] = [];
