import { ExpectedVersion } from '../../core/validation/expected-version.js';
import { ArgsType, Field, Float, InputType } from 'type-graphql';
import { ArrayMaxSize, IsOptional, ValidateNested } from 'class-validator';
import { PageArgs, Paginated } from '../../core/pagination.js';
import { UUID } from '../../core/scalars.js';
import { IfPresent } from '../../core/validation/if-present.js';
import { BrainCanvas } from './brain-canvas.entity.js';
import { BrainFolder } from './brain-folder.entity.js';
import { BrainNote } from './brain-note.entity.js';
import { BrainTag } from './brain-tag.entity.js';
import { HexColour, RequiredText, Text } from '../../core/validation/text.js';
import { BoundedNumber } from '../../core/validation/numbers.js';
import { OneOf } from '../../core/validation/choice.js';

export const NOTE_TITLE_MAX = 300;
/** About 200 pages of text: a note, not a book. */
export const NOTE_CONTENT_MAX = 500_000;
export const FOLDER_NAME_MAX = 200;
export const TAG_NAME_MAX = 100;
export const NOTE_TAGS_MAX = 50;
/** The refusal of more than NOTE_TAGS_MAX tags on a note (GraphQL, REST and the connector). */
export const NOTE_TAGS_MESSAGE = `at most ${NOTE_TAGS_MAX} tags`;
export const CANVAS_NAME_MAX = 200;
export const CANVAS_CARDS_MAX = 500;
/** Canvas coordinates and sizes stay within ±1e7 (a board, not a map). */
export const CANVAS_COORD_MAX = 10_000_000;
/** The entity types a canvas card may show: the Brain's searchable types. */
export const CANVAS_ENTITY_TYPES = ['note', 'database', 'record', 'form'];

function Markdown(): PropertyDecorator {
  return Text(NOTE_CONTENT_MAX, 'content');
}

function TagIds(): PropertyDecorator {
  return ArrayMaxSize(NOTE_TAGS_MAX, { message: NOTE_TAGS_MESSAGE });
}

// ---------------------------------------------------------------- notes

@ArgsType()
export class BrainNoteIdArgs {
  @Field(() => UUID)
  noteId!: string;
}

/** A delete that may name the `version` last read (docs/concurrency.md). */
@ArgsType()
export class DeleteBrainNoteArgs extends BrainNoteIdArgs {
  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class ListBrainNotesArgs extends PageArgs {
  @Field(() => UUID, { nullable: true, description: 'Only the notes directly in this folder.' })
  folderId?: string;

  @Field(() => Boolean, { nullable: true, description: 'true: only the notes in no folder.' })
  unfiled?: boolean;

  @Field(() => UUID, { nullable: true, description: 'Only the notes carrying this tag.' })
  tagId?: string;
}

@ArgsType()
export class CreateBrainNoteArgs {
  @Field(() => String)
  @RequiredText('title', NOTE_TITLE_MAX)
  title!: string;

  @Field(() => String, { nullable: true, description: 'Markdown (default empty).' })
  @IsOptional()
  @Markdown()
  content?: string | null;

  @Field(() => UUID, { nullable: true, description: 'One of your folders; null or absent: at the top.' })
  folderId?: string | null;

  @Field(() => [UUID], { nullable: true, description: 'Your Brain tags (/brain/tags).' })
  @IsOptional()
  @TagIds()
  tagIds?: string[] | null;
}

@ArgsType()
export class UpdateBrainNoteArgs extends BrainNoteIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @RequiredText('title', NOTE_TITLE_MAX)
  title?: string;

  @Field(() => String, { nullable: true, description: 'Markdown.' })
  @IfPresent('content')
  @Markdown()
  content?: string;

  @Field(() => UUID, { nullable: true, description: 'Moves the note; null: to the top.' })
  folderId?: string | null;

  @Field(() => [UUID], { nullable: true, description: 'The whole set of tags (attach and detach by sending it); [] removes all.' })
  @IfPresent('tagIds')
  @TagIds()
  tagIds?: string[];

  @ExpectedVersion()
  expectedVersion?: number | null;
}

export const BrainNotePage = Paginated(BrainNote, 'BrainNotePage');
export type BrainNotePage = InstanceType<typeof BrainNotePage>;

// ---------------------------------------------------------------- folders

@ArgsType()
export class BrainFolderIdArgs {
  @Field(() => UUID)
  folderId!: string;
}

@ArgsType()
export class CreateBrainFolderArgs {
  @Field(() => String)
  @RequiredText('name', FOLDER_NAME_MAX)
  name!: string;

  @Field(() => UUID, { nullable: true, description: 'The folder to create it in; null or absent: at the top.' })
  parentId?: string | null;
}

@ArgsType()
export class UpdateBrainFolderArgs extends BrainFolderIdArgs {
  @Field(() => String, { nullable: true, description: 'Renames the folder.' })
  @IfPresent('name')
  @RequiredText('name', FOLDER_NAME_MAX)
  name?: string;

  @Field(() => UUID, { nullable: true, description: 'Moves the folder into another one; null: to the top. Not into itself or below itself.' })
  parentId?: string | null;
}

// ---------------------------------------------------------------- tags

@ArgsType()
export class BrainTagIdArgs {
  @Field(() => UUID)
  tagId!: string;
}

@ArgsType()
export class CreateBrainTagArgs {
  @Field(() => String, { description: 'Unique among your Brain tags, ignoring case.' })
  @RequiredText('name', TAG_NAME_MAX)
  name!: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB.' })
  @IsOptional()
  @HexColour('color')
  color?: string | null;
}

@ArgsType()
export class UpdateBrainTagArgs extends BrainTagIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', TAG_NAME_MAX)
  name?: string;

  @Field(() => String, { nullable: true, description: 'Hex colour #RRGGBB; null removes it.' })
  @IsOptional()
  @HexColour('color')
  color?: string | null;
}

// ---------------------------------------------------------------- canvases

function Coordinate(field: string, min = -CANVAS_COORD_MAX): PropertyDecorator {
  return BoundedNumber(min, CANVAS_COORD_MAX, {
    number: `${field} must be a number`,
    min: `${field} must be at least ${min}`,
    max: `${field} must be at most ${CANVAS_COORD_MAX}`,
  });
}

@InputType('BrainCanvasCardInput')
export class BrainCanvasCardInput {
  @Field(() => String, { description: `${CANVAS_ENTITY_TYPES.join(', ')}.` })
  @OneOf('entityType', CANVAS_ENTITY_TYPES)
  entityType!: string;

  @Field(() => UUID, { description: 'One of your entities of that type.' })
  entityId!: string;

  @Field(() => Float)
  @Coordinate('x')
  x!: number;

  @Field(() => Float)
  @Coordinate('y')
  y!: number;

  @Field(() => Float, { nullable: true, description: 'Width; absent: the client default.' })
  @IsOptional()
  @Coordinate('w', 1)
  w?: number | null;

  @Field(() => Float, { nullable: true, description: 'Height; absent: the client default.' })
  @IsOptional()
  @Coordinate('h', 1)
  h?: number | null;
}

@ArgsType()
export class BrainCanvasIdArgs {
  @Field(() => UUID)
  canvasId!: string;
}

@ArgsType()
export class CreateBrainCanvasArgs {
  @Field(() => String)
  @RequiredText('name', CANVAS_NAME_MAX)
  name!: string;

  @Field(() => [BrainCanvasCardInput], { nullable: true, description: 'The cards on the board (default none).' })
  @IsOptional()
  @ArrayMaxSize(CANVAS_CARDS_MAX, { message: `at most ${CANVAS_CARDS_MAX} cards` })
  @ValidateNested({ each: true })
  cards?: BrainCanvasCardInput[] | null;
}

@ArgsType()
export class UpdateBrainCanvasArgs extends BrainCanvasIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', CANVAS_NAME_MAX)
  name?: string;

  @Field(() => [BrainCanvasCardInput], { nullable: true, description: 'The whole board: replaces every card.' })
  @IfPresent('cards')
  @ArrayMaxSize(CANVAS_CARDS_MAX, { message: `at most ${CANVAS_CARDS_MAX} cards` })
  @ValidateNested({ each: true })
  cards?: BrainCanvasCardInput[];
}

export const BrainCanvasPage = Paginated(BrainCanvas, 'BrainCanvasPage');
export type BrainCanvasPage = InstanceType<typeof BrainCanvasPage>;
export const BrainFolderPage = Paginated(BrainFolder, 'BrainFolderPage');
export type BrainFolderPage = InstanceType<typeof BrainFolderPage>;
export const BrainTagPage = Paginated(BrainTag, 'BrainTagPage');
export type BrainTagPage = InstanceType<typeof BrainTagPage>;
