import { getPriority } from 'node:os';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../core/logger.js';
import { VariantName } from './file-kinds.js';
import { childProcessRenderer, RenderProcessError, type ImageRenderer } from './image-renderer.js';

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();

const exited = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

let renderer: ImageRenderer | undefined;
afterEach(async () => {
  await renderer?.close();
});

describe('the image render process (issue 23 item 8)', () => {
  it('renders in a child process at a lower priority than the service, which ends when idle', async () => {
    renderer = childProcessRenderer(createLogger('silent'), { idleMs: 300 });
    const outcomes = await renderer.variants(await png(1600, 1200), 'image/png', [VariantName.thumbnail, VariantName.large]);
    expect(outcomes.get(VariantName.large)).toMatchObject({ ok: true, out: { width: 1200, height: 900 } });
    expect((outcomes.get(VariantName.thumbnail) as any).out.data).toBeInstanceOf(Buffer);
    const pid = renderer.pid!;
    expect(pid).not.toBe(process.pid);
    expect(getPriority(pid)).toBe(19); // the lowest priority
    await expect.poll(() => exited(pid), { timeout: 5_000 }).toBe(true);
    expect(renderer.pid).toBeNull();
    // The next image starts it again.
    expect((await renderer.variant(await png(300, 200), 'image/png', VariantName.small)).width).toBe(300);
  });

  it('gives a bad image its reason, and fails the work in progress when the process dies', async () => {
    renderer = childProcessRenderer(createLogger('silent'));
    await expect(renderer.variant(Buffer.from('not an image'), 'image/png', VariantName.small)).rejects.toThrow(/unsupported image format|Input buffer/i);
    const working = renderer.variants(await png(4000, 3000), 'image/png', [VariantName.thumbnail, VariantName.small, VariantName.medium, VariantName.large]);
    await expect.poll(() => renderer!.pid).not.toBeNull();
    process.kill(renderer.pid!, 'SIGKILL');
    await expect(working).rejects.toBeInstanceOf(RenderProcessError);
  });

  it('ends the process and fails the work when an image takes longer than the timeout', async () => {
    renderer = childProcessRenderer(createLogger('silent'), { timeoutMs: 1 });
    await expect(renderer.variants(await png(4000, 3000), 'image/png', [VariantName.large])).rejects.toBeInstanceOf(RenderProcessError);
  });
});
