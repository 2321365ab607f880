import type { ConnectorTool } from './tool.js';

/** The brain-notes tools (issue 25). */
export const brainNoteTools: ConnectorTool[] = [];
