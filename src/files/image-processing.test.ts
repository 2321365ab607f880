import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESIZED_VARIANTS, type ResizedVariant } from './file-kinds.js';
import { makeImage } from './files.test-helpers.js';
import { renderVariant, renderVariants, variantSize, type VariantOutcome } from './image-processing.js';

/** The eager job's single-decode rendering against one sharp pipeline per variant (the lazy path). */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-image-processing-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sizes = (outcomes: Map<ResizedVariant, VariantOutcome>) =>
  Object.fromEntries(
    RESIZED_VARIANTS.map((v) => {
      const o = outcomes.get(v)!;
      if (!o.ok) throw o.error;
      return [v, [o.out.width, o.out.height]];
    }),
  );

async function onePipelineEach(source: Buffer | string, mimeType: string) {
  const entries = [];
  for (const v of RESIZED_VARIANTS) {
    const out = await renderVariant(source, mimeType, v);
    entries.push([v, [out.width, out.height]]);
  }
  return Object.fromEntries(entries);
}

describe('renderVariants (one decode for all variants)', () => {
  it.each([
    ['jpeg', 4000, 3000],
    ['jpeg', 3001, 1999],
    ['jpeg', 1237, 2911],
    ['png', 2000, 500],
    ['webp', 300, 200],
    ['jpeg', 5000, 120],
    ['png', 90, 60],
  ] as const)('gives each variant of a %s %ix%i the size one pipeline per variant gives', async (format, width, height) => {
    const image = await makeImage(format, width, height);
    const mime = `image/${format}`;
    const path = join(dir, `${format}-${width}x${height}`);
    await writeFile(path, image);
    const outcomes = await renderVariants(path, mime, RESIZED_VARIANTS);
    expect(sizes(outcomes)).toEqual(await onePipelineEach(image, mime));
    for (const v of RESIZED_VARIANTS) {
      const o = outcomes.get(v)!;
      if (!o.ok) throw o.error;
      const meta = await sharp(o.out.data).metadata();
      expect(meta.format).toBe(format);
      expect([meta.width, meta.height]).toEqual([o.out.width, o.out.height]);
      expect(o.out.size).toBe(o.out.data.length);
      expect(meta.exif).toBeUndefined();
    }
  });

  it('applies EXIF orientation and keeps the picture (not just the size) of one pipeline per variant', async () => {
    const image = await makeImage('jpeg', 1600, 1200, { exifOrientation: 6, gps: true });
    const outcomes = await renderVariants(image, 'image/jpeg', RESIZED_VARIANTS);
    expect(sizes(outcomes)).toEqual({ thumbnail: [150, 150], small: [300, 400], medium: [600, 800], large: [900, 1200] });
    for (const v of RESIZED_VARIANTS) {
      const o = outcomes.get(v)!;
      if (!o.ok) throw o.error;
      const direct = await renderVariant(image, 'image/jpeg', v);
      const a = await sharp(o.out.data).raw().toBuffer();
      const b = await sharp(direct.data).raw().toBuffer();
      expect(a.length).toBe(b.length);
      let diff = 0;
      for (let i = 0; i < a.length; i++) diff += Math.abs(a[i]! - b[i]!);
      expect(diff / a.length, v).toBeLessThan(4); // mean difference per channel, out of 255
      expect((await sharp(o.out.data).metadata()).exif).toBeUndefined();
    }
  });

  it('a corrupt image gives every variant a failure, without throwing', async () => {
    const corrupt = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(20_000)]);
    const outcomes = await renderVariants(corrupt, 'image/jpeg', RESIZED_VARIANTS);
    expect([...outcomes.keys()].sort()).toEqual([...RESIZED_VARIANTS].sort());
    for (const o of outcomes.values()) expect(o.ok).toBe(false);
  });

  it('a missing local file is a failure of every variant, not a crash', async () => {
    const outcomes = await renderVariants(join(dir, 'nope.jpg'), 'image/jpeg', RESIZED_VARIANTS);
    for (const o of outcomes.values()) expect(o.ok).toBe(false);
  });

  it('renders a 16-bit PNG one pipeline per variant (its depth is kept as before)', async () => {
    const png16 = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#336699' } }).png().toColourspace('rgb16').toBuffer();
    expect((await sharp(png16).metadata()).depth).toBe('ushort');
    const outcomes = await renderVariants(png16, 'image/png', RESIZED_VARIANTS);
    expect(sizes(outcomes)).toEqual(await onePipelineEach(png16, 'image/png'));
    const o = outcomes.get(RESIZED_VARIANTS[1])!;
    if (!o.ok) throw o.error;
    const direct = await renderVariant(png16, 'image/png', RESIZED_VARIANTS[1]);
    expect((await sharp(o.out.data).metadata()).depth).toBe((await sharp(direct.data).metadata()).depth);
  });

  it('variantSize fits inside the box without enlarging; the thumbnail is the box', () => {
    expect(variantSize(4000, 3000, RESIZED_VARIANTS[3])).toEqual({ width: 1200, height: 900 });
    expect(variantSize(3000, 4000, RESIZED_VARIANTS[2])).toEqual({ width: 600, height: 800 });
    expect(variantSize(300, 200, RESIZED_VARIANTS[3])).toEqual({ width: 300, height: 200 });
    expect(variantSize(100_000, 10, RESIZED_VARIANTS[1])).toEqual({ width: 400, height: 1 });
    expect(variantSize(40, 30, RESIZED_VARIANTS[0])).toEqual({ width: 150, height: 150 });
  });
});
