import type { ConnectorTool } from './tool.js';

/** The finance tools (issue 25). */
export const financeTools: ConnectorTool[] = [];
