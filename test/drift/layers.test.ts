import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerViolations, missingFolders } from '../../scripts/layers.js';
import { FOLDER_LAYERS, withArchitectureList } from '../../scripts/layer-table.js';

const ROOT = join(import.meta.dirname, '..', '..');

async function plant(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'lp-layers-'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

/**
 * Issue 24: imports run one way, and a new import that runs back up fails the suite. Issue 35: the layer
 * of every folder is one table (scripts/layer-table.ts) the rules and the README's list come from, and
 * a folder the table does not place fails.
 */
describe('the layers of the code', () => {
  it('places every folder under src/ in one layer, has no import from a lower layer to a higher one and no import circle in src/ and rest/', async () => {
    expect(await layerViolations(['src', 'rest'], ROOT)).toEqual([]);
  });

  it('has no table entry for a folder that does not exist', () => {
    expect(missingFolders(ROOT)).toEqual([]);
  });

  it("the README's architecture list is the table's (npm run generate rewrites it)", async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toBe(withArchitectureList(readme));
  });

  it('fails on a planted upward import and a planted circle', async () => {
    const root = await plant({
      'src/app/loaders.ts': 'export const loaders = 1;\n',
      'src/core/context.ts': "import { loaders } from '../app/loaders.js';\nexport const context = loaders;\n",
      'src/tasks/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/tasks/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      'src/tasks/task.service.ts': "import { context } from '../core/context.js';\nexport const service = context;\n",
      'rest/route-table.ts': 'export const routes = 1;\n',
      'src/connector/edge.ts': "import { routes } from '../../rest/route-table.js';\nexport const edge = routes;\n",
    });
    try {
      const violations = await layerViolations(['src', 'rest'], root);
      expect(violations).toEqual(
        expect.arrayContaining([
          { rule: 'no-upward-import-from-core', from: 'src/core/context.ts', to: 'src/app/loaders.ts' },
          expect.objectContaining({ rule: 'no-circular', from: expect.stringMatching(/^src\/tasks\/[ab]\.ts$/) }),
          { rule: 'rest-only-from-app', from: 'src/connector/edge.ts', to: 'rest/route-table.ts' },
        ]),
      );
      // A domain reaching down to core is no violation.
      expect(violations.filter((v) => v.from === 'src/tasks/task.service.ts')).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  // A new folder (here src/zz-chores/) that imports the composition, imported by core: the table does not
  // place it, so it fails as such, and core's import of it fails whatever it holds; once placed (as a
  // domain), its own upward import fails by the rules the table gives its layer.
  const newFolder = {
    'src/app/loaders.ts': 'export const loaders = 1;\n',
    'src/zz-chores/chore.service.ts': "import { loaders } from '../app/loaders.js';\nexport const habits = loaders;\n",
    'src/core/context.ts': "import { habits } from '../zz-chores/chore.service.js';\nexport const context = habits;\n",
  };

  it('fails on a folder under src/ that is in no layer, and on imports of it from below', async () => {
    const root = await plant({ ...newFolder, 'src/zz-planted.ts': 'export const loose = 1;\n' });
    try {
      const violations = await layerViolations(['src'], root);
      expect(violations).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ rule: 'folder-in-no-layer', from: 'src/zz-chores/' }),
          expect.objectContaining({ rule: 'folder-in-no-layer', from: 'src/zz-planted.ts' }),
          { rule: 'no-upward-import-from-core', from: 'src/core/context.ts', to: 'src/zz-chores/chore.service.ts' },
        ]),
      );
      expect(violations.filter((v) => v.rule === 'folder-in-no-layer').map((v) => v.from)).toEqual(['src/zz-chores/', 'src/zz-planted.ts']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('derives the rules from the table: a new folder placed as a domain may not import the composition', async () => {
    const root = await plant(newFolder);
    const table = { ...FOLDER_LAYERS, 'src/zz-chores/': { layer: 'domains' as const, what: 'chores' } };
    try {
      const violations = await layerViolations(['src'], root, table);
      expect(violations).toEqual(
        expect.arrayContaining([
          { rule: 'no-upward-import-from-domains', from: 'src/zz-chores/chore.service.ts', to: 'src/app/loaders.ts' },
          { rule: 'no-upward-import-from-core', from: 'src/core/context.ts', to: 'src/zz-chores/chore.service.ts' },
        ]),
      );
      expect(violations.filter((v) => v.rule === 'folder-in-no-layer')).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
