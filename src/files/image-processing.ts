import { availableParallelism } from 'node:os';
import type { Metadata, OutputInfo, ResizeOptions, Sharp, SharpOptions } from 'sharp';
import { VariantName, type ResizedVariant } from './file-kinds.js';

type SharpFactory = (input?: Buffer | string, options?: SharpOptions) => Sharp;
let loading: Promise<SharpFactory> | undefined;

/*
 * sharp (libvips, about 30 MB of memory) is loaded with the first image, not at start, and configured
 * here once for the whole process. No operation cache (each upload is processed once, so caching only
 * holds memory). libvips gets a thread per core: sharp's own default is a single thread on glibc Linux
 * without jemalloc, where one image's decode then leaves the other core idle (ten 4000×3000 JPEGs two
 * at a time took about 1.5 times as long on two cores).
 */
function loadSharp(): Promise<SharpFactory> {
  return (loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(availableParallelism());
    return sharp;
  }));
}

/** How each variant is fitted (docs/decisions.md, Variants): the thumbnail is a square cover crop, the others fit inside. */
export const VARIANT_BOX: Record<ResizedVariant, { size: number; fit: 'cover' | 'inside' }> = {
  [VariantName.thumbnail]: { size: 150, fit: 'cover' },
  [VariantName.small]: { size: 400, fit: 'inside' },
  [VariantName.medium]: { size: 800, fit: 'inside' },
  [VariantName.large]: { size: 1200, fit: 'inside' },
};

/** Refuse pixel floods: a 10 MB PNG can claim billions of pixels. */
const LIMIT_INPUT_PIXELS = 100_000_000;

/**
 * The most memory one image may take decoded (width × height × bands × bytes per sample) for its
 * variants to be made (issue 23): a 100-megapixel 16-bit PNG is 600 MB decoded, and two at a time
 * took the service to 1.5 GB and kept libuv's threads from sign-in's password hashing. JPEG and WebP
 * are decoded shrunk (shrink-on-load), so the bound applies to the other formats.
 */
export const MAX_DECODED_BYTES = 256 * 1024 * 1024;
const SHRINK_ON_LOAD = new Set(['jpeg', 'webp']);
const BYTES_PER_SAMPLE: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4, complex: 8, double: 8, dpcomplex: 16 };

/** An image whose decoded pixels would pass MAX_DECODED_BYTES: its variants fail with this reason. */
export class ImageTooLargeError extends Error {}

function decodedBytesProblem(meta: Metadata): ImageTooLargeError | null {
  if (SHRINK_ON_LOAD.has(meta.format ?? '') || !meta.width || !meta.height) return null;
  const bytes = meta.width * meta.height * (meta.pages ?? 1) * (meta.channels ?? 4) * (BYTES_PER_SAMPLE[meta.depth ?? 'uchar'] ?? 1);
  if (bytes <= MAX_DECODED_BYTES) return null;
  const mb = (n: number) => Math.round(n / (1024 * 1024));
  return new ImageTooLargeError(`too large to make variants from: ${meta.width}×${meta.height} decodes to ${mb(bytes)} MB, at most ${mb(MAX_DECODED_BYTES)} MB`);
}

const input = async (data: ImageSource) => (await loadSharp())(data, { failOn: 'error', limitInputPixels: LIMIT_INPUT_PIXELS });

/** An image's bytes, or the path of a local file holding them (read by libvips, never whole into the heap). */
export type ImageSource = Buffer | string;

export interface RenderedVariant {
  data: Buffer;
  width: number;
  height: number;
  size: number;
}

const fitOptions = (variant: ResizedVariant): ResizeOptions =>
  VARIANT_BOX[variant].fit === 'cover' ? { fit: 'cover', position: 'centre' } : { fit: 'inside', withoutEnlargement: true };

/** Written in the original's format, with no metadata. */
function encode(pipeline: Sharp, mimeType: string): Sharp {
  if (mimeType === 'image/png') return pipeline.png({ compressionLevel: 6 });
  if (mimeType === 'image/webp') return pipeline.webp({ quality: 82 });
  return pipeline.jpeg({ quality: 82 });
}

async function output(pipeline: Sharp, mimeType: string): Promise<RenderedVariant> {
  const { data, info } = await encode(pipeline, mimeType).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, size: info.size };
}

/**
 * One variant of an image: EXIF orientation applied, then resized; written in the original's format
 * with no metadata (sharp drops EXIF, GPS, XMP and ICC-less profiles unless asked to keep them).
 */
export async function renderVariant(data: ImageSource, mimeType: string, variant: ResizedVariant): Promise<RenderedVariant> {
  const box = VARIANT_BOX[variant];
  const image = await input(data);
  const tooLarge = decodedBytesProblem(await image.metadata()); // the header only
  if (tooLarge) throw tooLarge;
  return output(image.rotate().resize(box.size, box.size, fitOptions(variant)), mimeType);
}

/**
 * The size of a variant of an image displayed `width`×`height`: the thumbnail is the box; the others
 * fit inside their box, never enlarged (sharp's own rule: one scale for both axes, rounded).
 */
export function variantSize(width: number, height: number, variant: ResizedVariant): { width: number; height: number } {
  const box = VARIANT_BOX[variant];
  if (box.fit === 'cover') return { width: box.size, height: box.size };
  const shrink = Math.max(width / box.size, height / box.size, 1);
  return { width: Math.max(1, Math.round(width / shrink)), height: Math.max(1, Math.round(height / shrink)) };
}

/** A variant, or why it could not be made. */
export type VariantOutcome = { ok: true; out: RenderedVariant } | { ok: false; error: unknown };

const settle = (work: Promise<RenderedVariant>): Promise<VariantOutcome> =>
  work.then(
    (out) => ({ ok: true as const, out }),
    (error: unknown) => ({ ok: false as const, error }),
  );

/**
 * Several variants of one image with a single decode: the image is decoded once (with JPEG
 * shrink-on-load), oriented and scaled to the largest requested "inside" variant, kept as raw pixels,
 * and every variant is resized from those pixels and encoded, in parallel: about half the CPU of one
 * pipeline per variant (one encode after the other measured slower on two cores). Sizes are `variantSize` of the displayed size (one pipeline per variant can
 * differ by a pixel where JPEG shrink-on-load rounds). Images this path does not cover exactly (16-bit
 * or multi-page) get one pipeline per variant. Never throws: a bad image gives failed outcomes.
 */
export async function renderVariants(source: ImageSource, mimeType: string, variants: readonly ResizedVariant[]): Promise<Map<ResizedVariant, VariantOutcome>> {
  const results = new Map<ResizedVariant, VariantOutcome>();
  // One after the other: each decodes the whole image (these are the images the shared decode does not
  // cover), and in parallel they held several decoded copies and several of libuv's threads at once.
  const separately = async (list: readonly ResizedVariant[]) => {
    for (const variant of list) results.set(variant, await settle(renderVariant(source, mimeType, variant)));
  };
  let meta: Metadata;
  try {
    meta = await (await input(source)).metadata();
  } catch (error) {
    for (const variant of variants) results.set(variant, { ok: false, error });
    return results;
  }
  const tooLarge = decodedBytesProblem(meta);
  if (tooLarge) {
    for (const variant of variants) results.set(variant, { ok: false, error: tooLarge });
    return results;
  }
  const inside = variants.filter((v) => VARIANT_BOX[v].fit === 'inside').sort((a, b) => VARIANT_BOX[b].size - VARIANT_BOX[a].size);
  if (variants.length < 2 || !inside.length) {
    await separately(variants);
    return results;
  }
  if (meta.depth !== 'uchar' || (meta.pages ?? 1) > 1 || !meta.width || !meta.height) {
    await separately(variants);
    return results;
  }
  const swapped = (meta.orientation ?? 1) >= 5;
  const width = swapped ? meta.height : meta.width;
  const height = swapped ? meta.width : meta.height;

  const base = variantSize(width, height, inside[0]!);
  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await (await input(source)).rotate().resize(base.width, base.height, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  } catch (error) {
    for (const variant of variants) results.set(variant, { ok: false, error });
    return results;
  }
  const raw = { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } };
  const sharp = await loadSharp();
  const fromPixels = () => sharp(pixels.data, raw);
  // A thumbnail is cropped from the scaled pixels only when they are at least as large as the crop
  // (or are the whole image): a very wide image would otherwise be enlarged back.
  const thumbFromPixels = Math.min(base.width, base.height) >= VARIANT_BOX.thumbnail.size || (base.width === width && base.height === height);
  const direct = variants.filter((v) => VARIANT_BOX[v].fit === 'cover' && !thumbFromPixels);
  const derived = variants.filter((v) => !direct.includes(v));
  const outcomes = await Promise.all(
    derived.map((variant) => {
      if (VARIANT_BOX[variant].fit === 'cover') return settle(output(fromPixels().resize(VARIANT_BOX[variant].size, VARIANT_BOX[variant].size, fitOptions(variant)), mimeType));
      const size = variantSize(width, height, variant);
      const pipeline = size.width === base.width && size.height === base.height ? fromPixels() : fromPixels().resize(size.width, size.height, { fit: 'fill' });
      return settle(output(pipeline, mimeType));
    }),
  );
  derived.forEach((variant, i) => results.set(variant, outcomes[i]!));
  if (direct.length) await separately(direct);
  return results;
}

export interface ImageFacts {
  width: number;
  height: number;
  format: string;
}

/** Reads the header only; dimensions as displayed (EXIF orientation 5-8 swaps them). Null when unreadable. */
export async function probeImage(path: string): Promise<ImageFacts | null> {
  try {
    const meta = await (await input(path)).metadata();
    if (!meta.width || !meta.height) return null;
    const swapped = (meta.orientation ?? 1) >= 5;
    return { width: swapped ? meta.height : meta.width, height: swapped ? meta.width : meta.height, format: meta.format ?? 'unknown' };
  } catch {
    return null;
  }
}

/** A short, clear reason for a failed variant (libvips messages can run to many lines). */
export function describeImageError(error: unknown): string {
  if (error instanceof ImageTooLargeError) return `The image is ${error.message}`;
  const raw = error instanceof Error ? error.message : String(error);
  const first = raw.split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 2).join(' ');
  return `The image could not be processed: ${first || 'unknown error'}`.slice(0, 500);
}
