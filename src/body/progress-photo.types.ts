import { ArgsType, Field } from 'type-graphql';
import { PageArgs, Paginated } from '../core/pagination.js';
import { LocalDate, UUID } from '../core/scalars.js';
import { PhotoPose, ProgressPhoto } from './progress-photo.entity.js';
import { OptionalText } from '../core/validation/text.js';
import { OneOfEnum } from '../core/validation/choice.js';

export const PHOTO_NOTES_MAX = 2_000;

@ArgsType()
export class ListProgressPhotosArgs extends PageArgs {
  @Field(() => UUID, { nullable: true })
  dayId?: string;

  @Field(() => LocalDate, { nullable: true, description: 'First day included, YYYY-MM-DD.' })
  startDate?: string;

  @Field(() => LocalDate, { nullable: true, description: 'Last day included, YYYY-MM-DD.' })
  endDate?: string;
}

/** GraphQL form of POST /body-composition/photos: the image is uploaded first (POST /files/upload). */
@ArgsType()
export class CreateProgressPhotoArgs {
  @Field(() => UUID)
  dayId!: string;

  @Field(() => UUID, { description: "An image file of the caller's (POST /files/upload with fileType image)." })
  fileId!: string;

  @Field(() => PhotoPose)
  @OneOfEnum('pose', PhotoPose)
  pose!: PhotoPose;

  @Field(() => String, { nullable: true })
  @OptionalText(PHOTO_NOTES_MAX, 'notes')
  notes?: string | null;
}

export const ProgressPhotoPage = Paginated(ProgressPhoto, 'ProgressPhotoPage');
export type ProgressPhotoPage = InstanceType<typeof ProgressPhotoPage>;
