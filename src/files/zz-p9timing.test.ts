import { it } from 'vitest';
import sharp from 'sharp';
import { startTestApp } from '../../test/support/test-app.js';
import { signUp } from '../../test/support/http-client.js';
import { upload, waitForVariants } from './files.test-helpers.js';
import { renderVariant } from './image-processing.js';
it('timing', async () => {
  const app = await startTestApp({ LOG_LEVEL: 'warn' });
  try {
    const { client } = await signUp(app.url);
    const small = await sharp({ create: { width: 200, height: 150, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer();
    const img = await sharp(small).resize(4000, 3000).jpeg({ quality: 90 }).toBuffer();
    let t = performance.now();
    for (const v of ['thumbnail','small','medium','large'] as const) await renderVariant(img, 'image/jpeg', v);
    console.log('alone', performance.now() - t);
    const id = (await upload(client, img, 'image')).body.data.id;
    await waitForVariants(client, id);
    t = performance.now();
    for (const v of ['thumbnail','small','medium','large'] as const) await renderVariant(img, 'image/jpeg', v);
    console.log('alone', performance.now() - t);
  } finally { await app.close(); }
}, 120000);
