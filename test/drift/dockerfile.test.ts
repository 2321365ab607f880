import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { startScriptNodeFlags } from '../../scripts/start-script.js';

/**
 * The image runs the service as PID 1 (so `docker stop`'s SIGTERM reaches it, not an npm that leaves it
 * behind), with the pinned Node and the same flags as `npm start`: a flag added to the start script and
 * not to the image, or the reverse, fails here.
 */
it("the Dockerfile's CMD starts the service as package.json's start script does, on the pinned Node", async () => {
  const dockerfile = await readFile(new URL('../../Dockerfile', import.meta.url), 'utf8');
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
  expect(cmd, 'an exec-form CMD line').not.toBeNull();
  expect(JSON.parse(cmd![1]!)).toEqual(['/app/node_modules/.bin/node', ...(await startScriptNodeFlags()), 'dist/src/app/main.js']);
  // Built in the image, as `npm start`'s prestart would have built it at every start.
  expect(dockerfile).toMatch(/^RUN npm run build$/m);
});
