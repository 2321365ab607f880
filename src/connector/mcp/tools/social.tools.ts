import type { ConnectorTool } from './tool.js';

/** The social tools (issue 25). */
export const socialTools: ConnectorTool[] = [];
