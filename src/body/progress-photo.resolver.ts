import type { User } from '../accounts/user.entity.js';
import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { CurrentUser } from '../core/current-user.js';
import { StoredFile } from '../files/stored-file.entity.js';
import { ProgressPhoto } from './progress-photo.entity.js';
import { ProgressPhotoService } from './progress-photo.service.js';
import { CreateProgressPhotoArgs, ListProgressPhotosArgs, ProgressPhotoPage } from './progress-photo.types.js';
import { Service } from '../core/request-services.js';

/** REST upload form: POST /body-composition/photos (multipart), see progress-photo.routes.ts. */
@Authorized()
@Resolver(() => ProgressPhoto)
export class ProgressPhotoResolver {
  @Query(() => ProgressPhotoPage, { description: "The caller's progress photos, oldest first; filter by day or date range." })
  async progressPhotos(@Args(() => ListProgressPhotosArgs) args: ListProgressPhotosArgs, @CurrentUser() user: User, @Service(ProgressPhotoService) progressPhotoService: ProgressPhotoService): Promise<ProgressPhotoPage> {
    return progressPhotoService.list(user.id, args);
  }

  @Mutation(() => ProgressPhoto, { description: 'A progress photo from an image uploaded with POST /files/upload.' })
  async createProgressPhoto(@Args(() => CreateProgressPhotoArgs) args: CreateProgressPhotoArgs, @CurrentUser() user: User, @Service(ProgressPhotoService) progressPhotoService: ProgressPhotoService): Promise<ProgressPhoto> {
    return progressPhotoService.create(user.id, args);
  }

  @FieldResolver(() => StoredFile)
  async file(@Root() photo: ProgressPhoto, @Ctx() ctx: AppContext): Promise<StoredFile> {
    return (await ctx.loaders.files.fileById.load(photo.fileId))!;
  }
}
