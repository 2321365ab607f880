import type { User } from '../accounts/user.entity.js';
import { Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../core/context.js';
import { Deleted } from '../core/deleted.js';
import { CurrentUser } from '../core/current-user.js';
import { VariantName } from './file-kinds.js';
import { FileService } from './file.service.js';
import { FileIdArgs, FilePage, FileUrl, FileUrlArgs, ListFilesArgs } from './files.types.js';
import { ImageVariant } from './image-variant.entity.js';
import { StoredFile } from './stored-file.entity.js';
import { Service } from '../core/request-services.js';

/** Uploads and downloads are REST routes (multipart, bytes): see src/files/file.routes.ts. */
@Authorized()
@Resolver(() => StoredFile)
export class FileResolver {
  @Query(() => FilePage, { description: "The caller's files, newest first; filter by fileType, mimeType or part of the name." })
  async files(@Args(() => ListFilesArgs) args: ListFilesArgs, @CurrentUser() user: User, @Service(FileService) fileService: FileService): Promise<FilePage> {
    return fileService.list(user.id, args);
  }

  @Query(() => StoredFile)
  async file(@Args(() => FileIdArgs) args: FileIdArgs, @CurrentUser() user: User, @Service(FileService) fileService: FileService): Promise<StoredFile> {
    return fileService.get(user.id, args.fileId);
  }

  @Query(() => FileUrl, {
    description: 'A short-lived URL of a variant (default original) that the client loads directly. A resized variant that does not exist yet is made first.',
  })
  async fileUrl(@Args(() => FileUrlArgs) args: FileUrlArgs, @CurrentUser() user: User, @Service(FileService) fileService: FileService): Promise<FileUrl> {
    return fileService.url(user.id, args.fileId, args.variant ?? VariantName.original);
  }

  @Mutation(() => Deleted, { description: 'Removes the file, its variants and every stored blob.' })
  async deleteFile(@Args(() => FileIdArgs) args: FileIdArgs, @CurrentUser() user: User, @Service(FileService) fileService: FileService): Promise<Deleted> {
    return fileService.delete(user.id, args.fileId);
  }

  @FieldResolver(() => String, { description: 'Short-lived URL of the original (see fileUrl for variants).' })
  async url(@Root() file: StoredFile, @Service(FileService) fileService: FileService): Promise<string> {
    return (await fileService.signedUrl(file, file.storageKey, VariantName.original)).url;
  }

  @FieldResolver(() => [ImageVariant], { description: 'Variants made so far (images only); see fileUrl to make one.' })
  variants(@Root() file: StoredFile, @Ctx() ctx: AppContext): Promise<ImageVariant[]> {
    return ctx.loaders.files.variantsByFileId.load(file.id);
  }
}
