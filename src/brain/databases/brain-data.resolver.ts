import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { given } from '../../core/given-args.js';
import type { AppContext } from '../../core/context.js';
import { CurrentUserId } from '../../core/current-user.js';
import { createDatabase, databaseView, deleteDatabase, listDatabases, ownDatabase, updateDatabase } from './database.service.js';
import { createRecord, deleteRecord, getRecord, listRecords, updateRecord } from './record.service.js';
import {
  BrainDatabaseIdArgs,
  BrainDatabaseView,
  BrainDeleted,
  BrainRecordIdArgs,
  BrainRecordPage,
  BrainRecordView,
  CreateBrainDatabaseArgs,
  CreateBrainRecordArgs,
  ListBrainRecordsArgs,
  UpdateBrainDatabaseArgs,
  UpdateBrainRecordArgs,
  DeleteBrainRecordArgs,
} from './brain-data.types.js';



/** Brain databases and records: thin callers of database.service.ts and record.service.ts. */
@Authorized()
@Resolver(() => BrainDatabaseView)
export class BrainDatabaseResolver {
  @Query(() => [BrainDatabaseView], { description: 'Your Brain databases, newest first.' })
  brainDatabases(@CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return listDatabases(ctx.em, userId);
  }

  @Query(() => BrainDatabaseView)
  async brainDatabase(@Args(() => BrainDatabaseIdArgs) args: BrainDatabaseIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return databaseView(await ownDatabase(ctx.em, userId, args.databaseId));
  }

  @Mutation(() => BrainDatabaseView)
  createBrainDatabase(@Args(() => CreateBrainDatabaseArgs) args: CreateBrainDatabaseArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return createDatabase(ctx.em, userId, given(args));
  }

  @Mutation(() => BrainDatabaseView, { description: '`properties` replaces every definition.' })
  updateBrainDatabase(@Args(() => UpdateBrainDatabaseArgs) args: UpdateBrainDatabaseArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    const { databaseId, ...changes } = given(args);
    return updateDatabase(ctx.em, userId, databaseId as string, changes);
  }

  @Mutation(() => BrainDeleted, { description: 'Deletes the database with its records and its forms.' })
  deleteBrainDatabase(@Args(() => BrainDatabaseIdArgs) args: BrainDatabaseIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return deleteDatabase(ctx.em, userId, args.databaseId);
  }
}

@Authorized()
@Resolver(() => BrainRecordView)
export class BrainRecordResolver {
  @Query(() => BrainRecordPage, { description: "A database's records, filtered and sorted by its properties (one statement)." })
  brainRecords(@Args(() => ListBrainRecordsArgs) args: ListBrainRecordsArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    const { databaseId, page, limit, ...rest } = given(args);
    // The service reads a query's text values (page and limit come as numbers here).
    const query = { ...rest, ...(page !== undefined && { page: String(page) }), ...(limit !== undefined && { limit: String(limit) }) };
    return listRecords(ctx.em, userId, databaseId as string, query);
  }

  @Query(() => BrainRecordView)
  brainRecord(@Args(() => BrainRecordIdArgs) args: BrainRecordIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return getRecord(ctx.em, userId, args.databaseId, args.recordId);
  }

  @Mutation(() => BrainRecordView)
  createBrainRecord(@Args(() => CreateBrainRecordArgs) args: CreateBrainRecordArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    const { databaseId, ...body } = given(args);
    return createRecord(ctx.em, userId, databaseId as string, body);
  }

  @Mutation(() => BrainRecordView, { description: '`values` merges: keys given replace their value, null removes one, keys left out stay.' })
  updateBrainRecord(@Args(() => UpdateBrainRecordArgs) args: UpdateBrainRecordArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    const { databaseId, recordId, expectedVersion, ...body } = given(args);
    return updateRecord(ctx.em, userId, databaseId as string, recordId as string, body, expectedVersion as number | null | undefined);
  }

  @Mutation(() => BrainDeleted)
  deleteBrainRecord(@Args(() => DeleteBrainRecordArgs) args: DeleteBrainRecordArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return deleteRecord(ctx.em, userId, args.databaseId, args.recordId, args.expectedVersion);
  }
}
