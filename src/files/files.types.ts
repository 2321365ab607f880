import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { IsEnum, IsOptional } from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { DateTimeISO, UUID } from '../core/scalars.js';
import { FileType, VariantName } from './file-kinds.js';
import { StoredFile } from './stored-file.entity.js';
import { OptionalText } from '../core/validation/text.js';
import { OneOfEnum } from '../core/validation/choice.js';
import { NeverCached } from '../graphql/cacheable-operation.js';

@ArgsType()
export class FileIdArgs {
  @Field(() => UUID)
  fileId!: string;
}

@ArgsType()
export class ListFilesArgs extends PageArgs {
  @Field(() => FileType, { nullable: true })
  @IsOptional()
  @IsEnum(FileType, { message: 'fileType must be image or document' })
  fileType?: FileType;

  @Field(() => String, { nullable: true, description: 'Exact MIME type, e.g. image/png.' })
  @OptionalText(100)
  mimeType?: string;

  @Field(() => String, { nullable: true, description: 'Part of the file name, case-insensitive.' })
  @OptionalText(255)
  search?: string;
}

@ArgsType()
export class FileUrlArgs extends FileIdArgs {
  @Field(() => VariantName, { nullable: true, description: 'Default `original`. Documents have only `original`.' })
  @IsOptional()
  @OneOfEnum('variant', VariantName)
  variant?: VariantName;
}

/** A URL the owner's client loads directly, valid until `expiresAt`. */
@NeverCached() // a signed URL that expires
@ObjectType({ simpleResolvers: true })
export class FileUrl {
  @Field(() => UUID)
  fileId!: string;

  @Field(() => VariantName)
  variant!: VariantName;

  @Field(() => String)
  url!: string;

  @Field(() => DateTimeISO)
  expiresAt!: Date;

  @Field(() => String)
  mimeType!: string;

  @Field(() => Int, { nullable: true })
  width?: number | null;

  @Field(() => Int, { nullable: true })
  height?: number | null;
}

export const FilePage = Paginated(StoredFile, 'FilePage');
export type FilePage = InstanceType<typeof FilePage>;
