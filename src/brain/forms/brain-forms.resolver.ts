import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { AppContext } from '../../core/context.js';
import { CurrentUserId } from '../../core/current-user.js';
import { given } from '../../core/given-args.js';
import { BrainDeleted } from '../databases/brain-data.types.js';
import { deleteForm, getForm, listForms, makeForm, publishForm, updateForm } from './form.service.js';
import { submitOwnForm } from './form-submit.service.js';
import {
  BrainFormEditorView,
  BrainFormIdArgs,
  BrainFormSubmitResult,
  BrainFormView,
  CreateBrainFormArgs,
  PublishBrainFormArgs,
  SubmitBrainFormArgs,
  UpdateBrainFormArgs,
} from './brain-forms.types.js';


/** Brain forms, the owner's side: thin callers of form.service.ts and form-submit.service.ts. */
@Authorized()
@Resolver(() => BrainFormView)
export class BrainFormResolver {
  @Query(() => [BrainFormView], { description: 'Your Brain forms, newest first.' })
  brainForms(@CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return listForms(ctx.em, userId);
  }

  @Query(() => BrainFormEditorView, { description: 'The editor payload: the form, its fields and its database.' })
  brainForm(@Args(() => BrainFormIdArgs) args: BrainFormIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return getForm(ctx.em, userId, args.formId);
  }

  @Mutation(() => BrainFormEditorView, { description: 'Over one of your databases (`databaseId`) or a new one (`createDatabase: { name }`).' })
  createBrainForm(@Args(() => CreateBrainFormArgs) args: CreateBrainFormArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return makeForm(ctx.em, userId, given(args));
  }

  @Mutation(() => BrainFormEditorView)
  updateBrainForm(@Args(() => UpdateBrainFormArgs) args: UpdateBrainFormArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    const { formId, ...changes } = given(args);
    return updateForm(ctx.em, userId, formId as string, changes);
  }

  @Mutation(() => BrainDeleted, { description: 'Its database and the records its answers made stay.' })
  deleteBrainForm(@Args(() => BrainFormIdArgs) args: BrainFormIdArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return deleteForm(ctx.em, userId, args.formId);
  }

  @Mutation(() => BrainFormView, { description: 'Publishing assigns `publicSlug` (kept when unpublished).' })
  publishBrainForm(@Args(() => PublishBrainFormArgs) args: PublishBrainFormArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    return publishForm(ctx.em, userId, args.formId, { published: args.published });
  }

  @Mutation(() => BrainFormSubmitResult, {
    description: 'Answers your own form (a record in its database, `brain_form_submitted`). Refusals: VALIDATION (details.errors), CLOSED 410, ALREADY_SUBMITTED 409.',
  })
  async submitBrainForm(@Args(() => SubmitBrainFormArgs) args: SubmitBrainFormArgs, @CurrentUserId() userId: string, @Ctx() ctx: AppContext) {
    const result = await submitOwnForm(ctx.em, userId, args.formId, { values: args.values ?? {}, respondentName: args.respondentName });
    return { ...result, quiz: result.quiz ?? null };
  }
}
