import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { Deleted } from '../../core/deleted.js';
import { CurrentUserId } from '../../core/current-user.js';
import { PageArgs } from '../../core/pagination.js';
import { BrainCanvas } from './brain-canvas.entity.js';
import { BrainCanvasService } from './brain-canvas.service.js';
import { BrainFolder } from './brain-folder.entity.js';
import { BrainFolderService } from './brain-folder.service.js';
import { BrainNote } from './brain-note.entity.js';
import { BrainNoteService } from './brain-note.service.js';
import { BrainTag } from './brain-tag.entity.js';
import { BrainTagService } from './brain-tag.service.js';
import {
  BrainCanvasIdArgs,
  BrainCanvasPage,
  BrainFolderIdArgs,
  BrainFolderPage,
  BrainNoteIdArgs,
  BrainNotePage,
  BrainTagIdArgs,
  BrainTagPage,
  CreateBrainCanvasArgs,
  CreateBrainFolderArgs,
  CreateBrainNoteArgs,
  CreateBrainTagArgs,
  ListBrainNotesArgs,
  UpdateBrainCanvasArgs,
  UpdateBrainFolderArgs,
  UpdateBrainNoteArgs,
  UpdateBrainTagArgs,
  DeleteBrainNoteArgs,
} from './brain-notes.types.js';
import { Service } from '../../core/request-services.js';


@Authorized()
@Resolver(() => BrainNote)
export class BrainNoteResolver {
  @Query(() => BrainNotePage, { description: 'Your notes, most recently edited first; filter by folder (or unfiled) and tag.' })
  brainNotes(@Args(() => ListBrainNotesArgs) args: ListBrainNotesArgs, @CurrentUserId() userId: string, @Service(BrainNoteService) brainNoteService: BrainNoteService): Promise<BrainNotePage> {
    return brainNoteService.list(userId, args);
  }

  @Query(() => BrainNote)
  brainNote(@Args(() => BrainNoteIdArgs) args: BrainNoteIdArgs, @CurrentUserId() userId: string, @Service(BrainNoteService) brainNoteService: BrainNoteService): Promise<BrainNote> {
    return brainNoteService.get(userId, args.noteId);
  }

  @Mutation(() => BrainNote)
  createBrainNote(@Args(() => CreateBrainNoteArgs) args: CreateBrainNoteArgs, @CurrentUserId() userId: string, @Service(BrainNoteService) brainNoteService: BrainNoteService): Promise<BrainNote> {
    return brainNoteService.create(userId, args);
  }

  @Mutation(() => BrainNote, { description: '`tagIds` replaces the whole set (attach and detach).' })
  updateBrainNote(@Args(() => UpdateBrainNoteArgs) args: UpdateBrainNoteArgs, @CurrentUserId() userId: string, @Service(BrainNoteService) brainNoteService: BrainNoteService): Promise<BrainNote> {
    const { noteId, expectedVersion, ...changes } = args;
    return brainNoteService.update(userId, noteId, changes, expectedVersion);
  }

  @Mutation(() => Deleted)
  deleteBrainNote(@Args(() => DeleteBrainNoteArgs) args: DeleteBrainNoteArgs, @CurrentUserId() userId: string, @Service(BrainNoteService) brainNoteService: BrainNoteService): Promise<Deleted> {
    return brainNoteService.delete(userId, args.noteId, args.expectedVersion);
  }
}

@Authorized()
@Resolver(() => BrainFolder)
export class BrainFolderResolver {
  @Query(() => BrainFolderPage, { description: 'Your folders, flat (each with its parentId), by name.' })
  brainFolders(@Args(() => PageArgs) args: PageArgs, @CurrentUserId() userId: string, @Service(BrainFolderService) brainFolderService: BrainFolderService): Promise<BrainFolderPage> {
    return brainFolderService.list(userId, args);
  }

  @Query(() => BrainFolder)
  brainFolder(@Args(() => BrainFolderIdArgs) args: BrainFolderIdArgs, @CurrentUserId() userId: string, @Service(BrainFolderService) brainFolderService: BrainFolderService): Promise<BrainFolder> {
    return brainFolderService.get(userId, args.folderId);
  }

  @Mutation(() => BrainFolder)
  createBrainFolder(@Args(() => CreateBrainFolderArgs) args: CreateBrainFolderArgs, @CurrentUserId() userId: string, @Service(BrainFolderService) brainFolderService: BrainFolderService): Promise<BrainFolder> {
    return brainFolderService.create(userId, args);
  }

  @Mutation(() => BrainFolder, { description: 'Renames (`name`) and moves (`parentId`, null: to the top); never into itself or below itself.' })
  updateBrainFolder(@Args(() => UpdateBrainFolderArgs) args: UpdateBrainFolderArgs, @CurrentUserId() userId: string, @Service(BrainFolderService) brainFolderService: BrainFolderService): Promise<BrainFolder> {
    const { folderId, ...changes } = args;
    return brainFolderService.update(userId, folderId, changes);
  }

  @Mutation(() => Deleted, { description: 'Only an empty folder (no notes, no sub-folders).' })
  deleteBrainFolder(@Args(() => BrainFolderIdArgs) args: BrainFolderIdArgs, @CurrentUserId() userId: string, @Service(BrainFolderService) brainFolderService: BrainFolderService): Promise<Deleted> {
    return brainFolderService.delete(userId, args.folderId);
  }
}

@Authorized()
@Resolver(() => BrainTag)
export class BrainTagResolver {
  @Query(() => BrainTagPage, { description: 'Your Brain tags, by name.' })
  brainTags(@Args(() => PageArgs) args: PageArgs, @CurrentUserId() userId: string, @Service(BrainTagService) brainTagService: BrainTagService): Promise<BrainTagPage> {
    return brainTagService.list(userId, args);
  }

  @Query(() => BrainTag)
  brainTag(@Args(() => BrainTagIdArgs) args: BrainTagIdArgs, @CurrentUserId() userId: string, @Service(BrainTagService) brainTagService: BrainTagService): Promise<BrainTag> {
    return brainTagService.get(userId, args.tagId);
  }

  @Mutation(() => BrainTag)
  createBrainTag(@Args(() => CreateBrainTagArgs) args: CreateBrainTagArgs, @CurrentUserId() userId: string, @Service(BrainTagService) brainTagService: BrainTagService): Promise<BrainTag> {
    return brainTagService.create(userId, args);
  }

  @Mutation(() => BrainTag)
  updateBrainTag(@Args(() => UpdateBrainTagArgs) args: UpdateBrainTagArgs, @CurrentUserId() userId: string, @Service(BrainTagService) brainTagService: BrainTagService): Promise<BrainTag> {
    const { tagId, ...changes } = args;
    return brainTagService.update(userId, tagId, changes);
  }

  @Mutation(() => Deleted, { description: 'The tag leaves the notes that carried it.' })
  deleteBrainTag(@Args(() => BrainTagIdArgs) args: BrainTagIdArgs, @CurrentUserId() userId: string, @Service(BrainTagService) brainTagService: BrainTagService): Promise<Deleted> {
    return brainTagService.delete(userId, args.tagId);
  }
}

@Authorized()
@Resolver(() => BrainCanvas)
export class BrainCanvasResolver {
  @Query(() => BrainCanvasPage, { description: 'Your canvases, oldest first.' })
  brainCanvases(@Args(() => PageArgs) args: PageArgs, @CurrentUserId() userId: string, @Service(BrainCanvasService) brainCanvasService: BrainCanvasService): Promise<BrainCanvasPage> {
    return brainCanvasService.list(userId, args);
  }

  @Query(() => BrainCanvas)
  brainCanvas(@Args(() => BrainCanvasIdArgs) args: BrainCanvasIdArgs, @CurrentUserId() userId: string, @Service(BrainCanvasService) brainCanvasService: BrainCanvasService): Promise<BrainCanvas> {
    return brainCanvasService.get(userId, args.canvasId);
  }

  @Mutation(() => BrainCanvas)
  createBrainCanvas(@Args(() => CreateBrainCanvasArgs) args: CreateBrainCanvasArgs, @CurrentUserId() userId: string, @Service(BrainCanvasService) brainCanvasService: BrainCanvasService): Promise<BrainCanvas> {
    return brainCanvasService.create(userId, args);
  }

  @Mutation(() => BrainCanvas, { description: '`cards` replaces every card of the board.' })
  updateBrainCanvas(@Args(() => UpdateBrainCanvasArgs) args: UpdateBrainCanvasArgs, @CurrentUserId() userId: string, @Service(BrainCanvasService) brainCanvasService: BrainCanvasService): Promise<BrainCanvas> {
    const { canvasId, ...changes } = args;
    return brainCanvasService.update(userId, canvasId, changes);
  }

  @Mutation(() => Deleted)
  deleteBrainCanvas(@Args(() => BrainCanvasIdArgs) args: BrainCanvasIdArgs, @CurrentUserId() userId: string, @Service(BrainCanvasService) brainCanvasService: BrainCanvasService): Promise<Deleted> {
    return brainCanvasService.delete(userId, args.canvasId);
  }
}
