import sharp from 'sharp';
import { VariantName, type ResizedVariant } from './file-kinds.js';

/*
 * sharp is configured here once for the whole process. No operation cache (each upload is processed
 * once, so caching only holds memory), and libvips may use both cores of a small machine.
 */
sharp.cache(false);
sharp.concurrency(0);

/** How each variant is fitted (README): the thumbnail is a square cover crop, the others fit inside. */
export const VARIANT_BOX: Record<ResizedVariant, { size: number; fit: 'cover' | 'inside' }> = {
  [VariantName.thumbnail]: { size: 150, fit: 'cover' },
  [VariantName.small]: { size: 400, fit: 'inside' },
  [VariantName.medium]: { size: 800, fit: 'inside' },
  [VariantName.large]: { size: 1200, fit: 'inside' },
};

/** Refuse pixel floods: a 10 MB PNG can claim billions of pixels. */
const LIMIT_INPUT_PIXELS = 100_000_000;

const input = (data: Buffer | string) => sharp(data, { failOn: 'error', limitInputPixels: LIMIT_INPUT_PIXELS });

export interface RenderedVariant {
  data: Buffer;
  width: number;
  height: number;
  size: number;
}

/**
 * One variant of an image: EXIF orientation applied, then resized; written in the original's format
 * with no metadata (sharp drops EXIF, GPS, XMP and ICC-less profiles unless asked to keep them).
 */
export async function renderVariant(data: Buffer, mimeType: string, variant: ResizedVariant): Promise<RenderedVariant> {
  const box = VARIANT_BOX[variant];
  let pipeline = input(data)
    .rotate()
    .resize(box.size, box.size, box.fit === 'cover' ? { fit: 'cover', position: 'centre' } : { fit: 'inside', withoutEnlargement: true });
  if (mimeType === 'image/png') pipeline = pipeline.png({ compressionLevel: 6 });
  else if (mimeType === 'image/webp') pipeline = pipeline.webp({ quality: 82 });
  else pipeline = pipeline.jpeg({ quality: 82 });
  const { data: out, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data: out, width: info.width, height: info.height, size: info.size };
}

export interface ImageFacts {
  width: number;
  height: number;
  format: string;
}

/** Reads the header only; dimensions as displayed (EXIF orientation 5-8 swaps them). Null when unreadable. */
export async function probeImage(path: string): Promise<ImageFacts | null> {
  try {
    const meta = await input(path).metadata();
    if (!meta.width || !meta.height) return null;
    const swapped = (meta.orientation ?? 1) >= 5;
    return { width: swapped ? meta.height : meta.width, height: swapped ? meta.width : meta.height, format: meta.format ?? 'unknown' };
  } catch {
    return null;
  }
}

/** A short, clear reason for a failed variant (libvips messages can run to many lines). */
export function describeImageError(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const first = raw.split('\n').map((l) => l.trim()).filter(Boolean).slice(0, 2).join(' ');
  return `The image could not be processed: ${first || 'unknown error'}`.slice(0, 500);
}
