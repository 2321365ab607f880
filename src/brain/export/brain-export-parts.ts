import type { BrainExportPart } from './brain-export-part.js';
import { notesExportPart } from './notes-export-part.js';

/** Every part of the Brain export zip, written in this order (the lead adds databases and forms). */
export const BRAIN_EXPORT_PARTS: BrainExportPart[] = [notesExportPart];
