import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESIZED_VARIANTS, type ResizedVariant } from './file-kinds.js';
import { makeImage } from './files.test-helpers.js';
import { describeImageError, MAX_DECODED_BYTES, renderVariant, renderVariants, variantSize, type VariantOutcome } from './image-processing.js';
import { deflateSync, crc32 } from 'node:zlib';

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

  it('refuses an image whose decoded pixels would pass the memory ceiling, from its header alone, with a clear reason', async () => {
    // A real PNG header (9000×9000, 16-bit RGB: 486 MB decoded) over a few bytes of pixel data.
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(9000, 0);
    ihdr.writeUInt32BE(9000, 4);
    ihdr.set([16, 2, 0, 0, 0], 8); // 16 bits, RGB
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(64))), chunk('IEND', Buffer.alloc(0))]);
    const meta = await sharp(png).metadata();
    expect([meta.width, meta.height, meta.depth, meta.channels]).toEqual([9000, 9000, 'ushort', 3]);
    expect(9000 * 9000 * 3 * 2).toBeGreaterThan(MAX_DECODED_BYTES);
    // Refused from the header: a decode of these pixel bytes would fail with libvips' own message instead.
    const outcomes = await renderVariants(png, 'image/png', RESIZED_VARIANTS);
    for (const o of outcomes.values()) {
      expect(o.ok).toBe(false);
      if (!o.ok) expect(describeImageError(o.error)).toBe('The image is too large to make variants from: 9000×9000 decodes to 463 MB, at most 256 MB');
    }
    await expect(renderVariant(png, 'image/png', RESIZED_VARIANTS[0])).rejects.toThrow(/too large/);
  });

  it('variantSize fits inside the box without enlarging; the thumbnail is the box', () => {
    expect(variantSize(4000, 3000, RESIZED_VARIANTS[3])).toEqual({ width: 1200, height: 900 });
    expect(variantSize(3000, 4000, RESIZED_VARIANTS[2])).toEqual({ width: 600, height: 800 });
    expect(variantSize(300, 200, RESIZED_VARIANTS[3])).toEqual({ width: 300, height: 200 });
    expect(variantSize(100_000, 10, RESIZED_VARIANTS[1])).toEqual({ width: 400, height: 1 });
    expect(variantSize(40, 30, RESIZED_VARIANTS[0])).toEqual({ width: 150, height: 150 });
  });
});
