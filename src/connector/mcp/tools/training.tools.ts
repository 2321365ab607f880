import type { ConnectorTool } from './tool.js';

/** The training tools (issue 25). */
export const trainingTools: ConnectorTool[] = [];
