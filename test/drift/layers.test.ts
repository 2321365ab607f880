import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layerViolations } from '../../scripts/layers.js';

/** Issue 24: imports run one way (scripts/layers.ts), and a new import that runs back up fails the suite. */
describe('the layers of the code', () => {
  it('has no import from a lower layer to a higher one and no import circle in src/ and rest/', async () => {
    expect(await layerViolations()).toEqual([]);
  });

  it('fails on a planted upward import and a planted circle', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lp-layers-'));
    const files: Record<string, string> = {
      'src/app/loaders.ts': 'export const loaders = 1;\n',
      'src/core/context.ts': "import { loaders } from '../app/loaders.js';\nexport const context = loaders;\n",
      'src/tasks/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'src/tasks/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      'src/tasks/task.service.ts': "import { context } from '../core/context.js';\nexport const service = context;\n",
      'rest/route-table.ts': 'export const routes = 1;\n',
      'src/connector/edge.ts': "import { routes } from '../../rest/route-table.js';\nexport const edge = routes;\n",
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(root, path)), { recursive: true });
        await writeFile(join(root, path), text);
      }
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
});
