import { cruise, type IForbiddenRuleType } from 'dependency-cruiser';

/**
 * The layers of the code, from the bottom (issue 24): an import may point to its own layer or a lower
 * one, never up, and no import circle. `src/app/` is the only folder that names every domain.
 */
export const LAYERS: readonly (readonly [name: string, path: string])[] = [
  ['core', '^src/core/'],
  ['jobs, mail, migrations', '^src/(jobs|mail|migrations)/'],
  ['http kit and graphql', '^src/(http|graphql|openapi)/'],
  ['hub', '^src/(planning|accounts|settings|api-keys|files)/'],
  ['domains', '^src/(tasks|training|nutrition|wellness|journal|reading|body|social|projects|finance|brain)/'],
  ['cross-cutting features', '^src/(gamification|webhooks|agenda|portability|reminders)/'],
  ['edges', '^(src/(public-api|connector|live)/|rest/)'],
  ['composition', '^src/app/'],
];

/** Tests, their helpers and declaration files may reach anywhere. */
const NOT_CODE = ['\\.test\\.ts$', 'test-helpers', '\\.d\\.ts$'];

export const LAYER_RULES: IForbiddenRuleType[] = [
  ...LAYERS.slice(0, -1).map(([name, path], i) => ({
    name: `no-upward-import-from-${name.replace(/\W+/g, '-')}`,
    comment: `${name} may import its own layer or a lower one only`,
    severity: 'error' as const,
    from: { path },
    to: { path: LAYERS.slice(i + 1).map(([, above]) => `(${above})`).join('|') },
  })),
  // One edge direction: rest/ (the REST surfaces of /api/v1 and /api/public/v1) is mounted by the
  // composition only; the other edges never build on it.
  { name: 'rest-only-from-app', comment: 'only src/app/ imports rest/', severity: 'error', from: { path: '^src/', pathNot: '^src/app/' }, to: { path: '^rest/' } },
  { name: 'no-circular', comment: 'no import circle', severity: 'error', from: {}, to: { circular: true } },
];

export interface LayerViolation {
  rule: string;
  from: string;
  to: string;
}

/** Every import of `dirs` (relative to `baseDir`) that breaks a layer rule; type-only imports count. */
export async function layerViolations(dirs: string[] = ['src', 'rest'], baseDir = process.cwd()): Promise<LayerViolation[]> {
  const result = await cruise(dirs, {
    baseDir,
    ruleSet: { forbidden: LAYER_RULES },
    validate: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: NOT_CODE },
    tsPreCompilationDeps: true,
  });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser answered text');
  return result.output.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.cycle ? v.cycle.map((c) => c.name).join(' → ') : v.to }));
}

// `npm run check:layers`: prints each violation; exits 1 when there is one.
if (process.argv[1]?.endsWith('layers.ts')) {
  const violations = await layerViolations();
  for (const v of violations) console.log(`${v.rule}: ${v.from} → ${v.to}`);
  console.log(violations.length ? `${violations.length} import(s) break the layers (scripts/layers.ts)` : 'every import keeps to the layers');
  process.exit(violations.length ? 1 : 0);
}
