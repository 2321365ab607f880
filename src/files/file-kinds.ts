import { registerEnumType } from 'type-graphql';

/** Spec, File: `image` or `document`, lowercase on every surface. */
export enum FileType {
  image = 'image',
  document = 'document',
}
registerEnumType(FileType, { name: 'FileType' });

/** Spec, Image variant. `original` is the unmodified upload. */
export enum VariantName {
  thumbnail = 'thumbnail',
  small = 'small',
  medium = 'medium',
  large = 'large',
  original = 'original',
}
registerEnumType(VariantName, { name: 'ImageVariantName' });

export enum VariantStatus {
  ready = 'ready',
  failed = 'failed',
}
registerEnumType(VariantStatus, {
  name: 'ImageVariantStatus',
  description: '`failed` variants keep the reason in `error`; they are not retried.',
});

/** The resized variants, in the order the eager job makes them. */
export const RESIZED_VARIANTS = [VariantName.thumbnail, VariantName.small, VariantName.medium, VariantName.large] as const;
export type ResizedVariant = (typeof RESIZED_VARIANTS)[number];
