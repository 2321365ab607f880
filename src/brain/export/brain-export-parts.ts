import type { BrainExportPart } from './brain-export-part.js';
import { databaseExportPart } from '../databases/database-export-part.js';
import { formExportPart } from '../forms/form-export-part.js';
import { notesExportPart } from './notes-export-part.js';

/** Every part of the Brain export zip, written in this order: notes, databases with their records, forms. */
export const BRAIN_EXPORT_PARTS: BrainExportPart[] = [notesExportPart, databaseExportPart, formExportPart];
