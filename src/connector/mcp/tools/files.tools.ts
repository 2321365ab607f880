import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../core/pagination.js';
import { optionalText } from '../../../core/validation/tool-arguments.js';
import { FileType, VariantName, VariantStatus } from '../../../files/file-kinds.js';
import { FileService } from '../../../files/file.service.js';
import { createFilesLoaders } from '../../../files/files.loaders.js';
import type { StoredFile } from '../../../files/stored-file.entity.js';
import { pageArgs } from '../../../core/validation/tool-arguments.js';
import { isoDateTime, pageMetaOut } from './outputs.js';
import { defineTool, READ_ONLY, type ConnectorTool } from './tool.js';

const fileOut = z.object({
  id: z.string(),
  fileName: z.string(),
  fileType: z.enum([FileType.image, FileType.document]),
  mimeType: z.string(),
  size: z.number().describe('Bytes.'),
  width: z.number().nullable(),
  height: z.number().nullable(),
  createdAt: isoDateTime,
  url: z.string().describe('Short-lived download URL of the original.'),
  urlExpiresAt: isoDateTime,
  variants: z
    .array(z.object({ variant: z.enum([VariantName.thumbnail, VariantName.small, VariantName.medium, VariantName.large]), width: z.number().nullable(), height: z.number().nullable(), url: z.string() }))
    .describe('Resized image variants made so far, each with its short-lived URL (documents have none).'),
});

const dimension = (file: StoredFile, key: 'width' | 'height') => {
  const value = file.metadata?.[key];
  return typeof value === 'number' ? value : null;
};

export const filesTools: ConnectorTool[] = [
  defineTool({
    name: 'files_list',
    mirrors: 'Query.files',
    title: 'List files',
    description: `The user's uploaded files, newest first (or the one \`fileId\`), each with its name, kind (image or document), MIME type and size, a short-lived download URL and the URLs of the resized image variants made so far; filter by \`fileType\`, exact \`mimeType\` or part of the name (\`search\`); paginated (\`page\` from 1, \`limit\` up to ${MAX_PAGE_SIZE}).`,
    inputSchema: {
      fileId: z.string().uuid().optional().describe('Only this file.'),
      fileType: z.enum([FileType.image, FileType.document]).optional(),
      mimeType: optionalText('mimeType', 100).describe('Exact MIME type, e.g. image/png.'),
      search: optionalText('search', 255).describe('Part of the file name, any case.'),
      ...pageArgs,
    },
    outputSchema: { files: z.array(fileOut), meta: pageMetaOut },
    area: 'journal',
    annotations: READ_ONLY,
    async run(args, ctx) {
      const service = ctx.service(FileService);
      const { fileId, ...filter } = args;
      const page = fileId ? { items: [await service.get(ctx.userId, fileId)], meta: { page: 1, limit: 1, total: 1 } } : await service.list(ctx.userId, filter);
      const variantsOf = createFilesLoaders(ctx.em).variantsByFileId;
      const files = await Promise.all(
        page.items.map(async (file) => {
          const [original, made] = await Promise.all([service.signedUrl(file, file.storageKey, VariantName.original), file.isImage ? variantsOf.load(file.id) : []]);
          const variants = await Promise.all(
            made
              .filter((v) => v.variant !== VariantName.original && v.status === VariantStatus.ready)
              .map(async (v) => ({
                variant: v.variant as Exclude<VariantName, VariantName.original>,
                width: v.width ?? null,
                height: v.height ?? null,
                url: (await service.signedUrl(file, v.storageKey, v.variant)).url,
              })),
          );
          return {
            id: file.id,
            fileName: file.fileName,
            fileType: file.fileType,
            mimeType: file.mimeType,
            size: file.size,
            width: dimension(file, 'width'),
            height: dimension(file, 'height'),
            createdAt: file.createdAt.toISOString(),
            url: original.url,
            urlExpiresAt: original.expiresAt.toISOString(),
            variants,
          };
        }),
      );
      return { files, meta: page.meta };
    },
  }),
];
