import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';
import { FOLDER_LAYERS, LAYERS, foldersOf } from './layer-table.js';

/**
 * The layers of the code, from the bottom (issue 24): an import may point to its own layer or a lower
 * one, never up, and no import circle. Which folder is in which layer is the table of
 * scripts/layer-table.ts; the rules below are derived from it, and a folder under src/ that the table
 * does not place is itself a violation. `src/app/` is the only folder that names every domain.
 */
type FolderTable = typeof FOLDER_LAYERS;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pathsOf = (folders: string[]) => folders.map((folder) => `^${escape(folder)}`);

/** The code the rules look at: every folder of the table lives under one of these. */
const CODE = '^(src|rest)/';

/**
 * One rule per layer: its folders may import code only in the folders of its own layer and those
 * below; an import of anything else under src/ or rest/ — a higher layer, or a folder in no layer — is
 * a violation.
 */
export function layerRules(table: FolderTable = FOLDER_LAYERS): IForbiddenRuleType[] {
  return LAYERS.flatMap(({ name }, i) => {
    const own = foldersOf(name, table);
    if (!own.length) return [];
    const allowed = LAYERS.slice(0, i + 1).flatMap((layer) => foldersOf(layer.name, table));
    return [
      {
        name: `no-upward-import-from-${name.replace(/\W+/g, '-')}`,
        comment: `${name} may import its own layer or a lower one only`,
        severity: 'error' as const,
        from: { path: pathsOf(own) },
        to: { path: CODE, pathNot: pathsOf(allowed) },
      },
    ];
  });
}

const EXTRA_RULES: IForbiddenRuleType[] = [
  // One edge direction: rest/ (the REST surfaces of /api/v1 and /api/public/v1) is mounted by the
  // composition only; the other edges never build on it.
  { name: 'rest-only-from-app', comment: 'only src/app/ imports rest/', severity: 'error', from: { path: '^src/', pathNot: '^src/app/' }, to: { path: '^rest/' } },
  { name: 'no-circular', comment: 'no import circle', severity: 'error', from: {}, to: { circular: true } },
];

/** The rules of the real table (kept as a value for callers that read them). */
export const LAYER_RULES: IForbiddenRuleType[] = [...layerRules(), ...EXTRA_RULES];

/** Tests, their helpers and declaration files may reach anywhere. */
const NOT_CODE = ['\\.test\\.ts$', 'test-helpers', '\\.d\\.ts$'];

export interface LayerViolation {
  rule: string;
  from: string;
  to: string;
}

/** Every entry directly under `src/` (of `baseDir`) that the table places in no layer. */
export async function unplacedFolders(baseDir = process.cwd(), table: FolderTable = FOLDER_LAYERS): Promise<string[]> {
  const entries = await readdir(join(baseDir, 'src'), { withFileTypes: true }).catch(() => []);
  return entries
    .map((entry) => `src/${entry.name}${entry.isDirectory() ? '/' : ''}`)
    .filter((path) => !(path in table))
    .sort();
}

/** Every folder of the table that does not exist (a moved or deleted folder keeps no entry). */
export function missingFolders(baseDir = process.cwd(), table: FolderTable = FOLDER_LAYERS): string[] {
  return Object.keys(table).filter((folder) => !existsSync(join(baseDir, folder)));
}

/**
 * Every import of `dirs` (relative to `baseDir`) that breaks a layer rule (type-only imports count),
 * and every folder under src/ in no layer.
 */
export async function layerViolations(dirs: string[] = ['src', 'rest'], baseDir = process.cwd(), table: FolderTable = FOLDER_LAYERS): Promise<LayerViolation[]> {
  const unplaced = (await unplacedFolders(baseDir, table)).map((path) => ({
    rule: 'folder-in-no-layer',
    from: path,
    to: 'no layer: place it in FOLDER_LAYERS (scripts/layer-table.ts)',
  }));
  const result = await cruise(dirs, {
    baseDir,
    ruleSet: { forbidden: [...layerRules(table), ...EXTRA_RULES] },
    validate: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: NOT_CODE },
    tsPreCompilationDeps: true,
  });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text');
  const imports = result.output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to }));
  return [...unplaced, ...imports];
}

// `npm run check:layers`: prints each violation; exits 1 when there is one.
if (process.argv[1]?.endsWith('layers.ts')) {
  const violations = [
    ...(await layerViolations()),
    ...missingFolders().map((folder) => ({ rule: 'layer-table-entry-without-folder', from: folder, to: '(scripts/layer-table.ts)' })),
  ];
  for (const v of violations) console.log(`${v.rule}: ${v.from} → ${v.to}`);
  console.log(violations.length ? `${violations.length} violation(s) of the layers (scripts/layer-table.ts, scripts/layers.ts)` : 'every folder has its layer and every import keeps to the layers');
  process.exit(violations.length ? 1 : 0);
}
