import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import {
  ArrayMaxSize,
  IsBoolean,
  IsNumber,
  IsOptional,
  IsPositive,
  Max,
  ValidateNested,
} from 'class-validator';
import { PageArgs, Paginated } from '../core/pagination.js';
import { UUID } from '../core/scalars.js';
import { IfPresent } from '../core/validation/if-present.js';
import { DinnerPlan } from './dinner-plan.entity.js';
import { MealTemplate } from './meal-template.entity.js';
import { OptionalText, RequiredText } from '../core/validation/text.js';
import { WholeNumber } from '../core/validation/numbers.js';

export const NAME_MAX = 200;
export const UNIT_MAX = 50;
export const SECTION_MAX = 100;
export const QUANTITY_MAX = 1_000_000;
export const INSTRUCTIONS_MAX = 20_000;
export const MAX_INGREDIENTS = 100;
/** Items one grocery list may hold (the `enforce_row_cap` trigger, migration 20261124163000). */
export const LIST_ITEMS_MAX = 500;
export const SERVINGS_MAX = 100;
/** The wording of the quantity and servings rules, shared with the connector's tool arguments. */
export const QUANTITY_POSITIVE_MESSAGE = 'quantity must be above 0';
export const SERVINGS_MESSAGES = {
  whole: 'servings must be a whole number',
  min: 'servings must be at least 1',
  max: `servings must be at most ${SERVINGS_MAX}`,
};

// ---------------------------------------------------------------- meal templates

@InputType('IngredientInput')
export class IngredientInput {
  @Field(() => String)
  @RequiredText('name', NAME_MAX)
  name!: string;

  @Field(() => Float, { nullable: true, description: 'Above 0 (one batch); leave out for "to taste".' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive({ message: QUANTITY_POSITIVE_MESSAGE })
  @Max(QUANTITY_MAX)
  quantity?: number | null;

  @Field(() => String, { nullable: true, description: 'e.g. g, ml, pcs; may be empty (default).' })
  @OptionalText(UNIT_MAX, 'unit')
  unit?: string | null;

  @Field(() => String, { nullable: true, description: 'Shop section, e.g. produce; may be empty (default).' })
  @OptionalText(SECTION_MAX, 'section')
  section?: string | null;
}

@ArgsType()
export class MealTemplateIdArgs {
  @Field(() => UUID)
  mealTemplateId!: string;
}

@ArgsType()
export class CreateMealTemplateArgs {
  @Field(() => String)
  @RequiredText('name', NAME_MAX)
  name!: string;

  @Field(() => [IngredientInput], { nullable: true, description: 'Defaults to none.' })
  @IsOptional()
  @ArrayMaxSize(MAX_INGREDIENTS, { message: `at most ${MAX_INGREDIENTS} ingredients` })
  @ValidateNested({ each: true })
  ingredients?: IngredientInput[];

  @Field(() => String, { nullable: true })
  @OptionalText(INSTRUCTIONS_MAX)
  instructions?: string;

  @Field(() => UUID, { nullable: true, description: 'An image file of yours.' })
  imageFileId?: string;

  @Field(() => Int, { nullable: true, description: `1-${SERVINGS_MAX}.` })
  @IsOptional()
  @WholeNumber(1, SERVINGS_MAX, { int: SERVINGS_MESSAGES.whole, min: SERVINGS_MESSAGES.min, max: SERVINGS_MESSAGES.max })
  servings?: number;
}

@ArgsType()
export class UpdateMealTemplateArgs extends MealTemplateIdArgs {
  @Field(() => String, { nullable: true })
  @IfPresent('name')
  @RequiredText('name', NAME_MAX)
  name?: string;

  @Field(() => [IngredientInput], { nullable: true, description: 'Replaces every ingredient.' })
  @IfPresent('ingredients')
  @ArrayMaxSize(MAX_INGREDIENTS, { message: `at most ${MAX_INGREDIENTS} ingredients` })
  @ValidateNested({ each: true })
  ingredients?: IngredientInput[];

  @Field(() => String, { nullable: true, description: 'null clears it.' })
  @OptionalText(INSTRUCTIONS_MAX)
  instructions?: string | null;

  @Field(() => UUID, { nullable: true, description: 'An image file of yours; null clears it.' })
  imageFileId?: string | null;

  @Field(() => Int, { nullable: true, description: 'null clears it.' })
  @IsOptional()
  @WholeNumber(1, SERVINGS_MAX, { int: SERVINGS_MESSAGES.whole, min: SERVINGS_MESSAGES.min, max: SERVINGS_MESSAGES.max })
  servings?: number | null;
}

// ---------------------------------------------------------------- dinner plans

@ArgsType()
export class WeekIdArgs {
  @Field(() => UUID)
  weekId!: string;
}

@ArgsType()
export class ListDinnerPlansArgs extends PageArgs {
  @Field(() => UUID, { nullable: true })
  weekId?: string;

  @Field(() => UUID, { nullable: true })
  dayId?: string;
}

@ArgsType()
export class UpdateDinnerPlanArgs {
  @Field(() => UUID)
  dinnerPlanId!: string;

  @Field(() => UUID, { nullable: true, description: "A template of yours; on a cook day it is set on the covered day too; null clears it." })
  mealTemplateId?: string | null;

  @Field(() => Boolean, { nullable: true, description: "true on a cook day completes the day's COOK checklist item; false reopens it." })
  @IfPresent('cooked')
  @IsBoolean()
  cooked?: boolean;
}

// ---------------------------------------------------------------- grocery lists

@ArgsType()
export class GroceryListIdArgs {
  @Field(() => UUID)
  groceryListId!: string;
}

@ArgsType()
export class UpdateGroceryItemArgs extends GroceryListIdArgs {
  @Field(() => UUID)
  itemId!: string;

  @Field(() => Boolean)
  @IsBoolean()
  purchased!: boolean;
}

@ArgsType()
export class AddGroceryItemArgs extends GroceryListIdArgs {
  @Field(() => String)
  @RequiredText('name', NAME_MAX)
  name!: string;

  @Field(() => Float, { nullable: true, description: 'Above 0; may be left out.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive({ message: QUANTITY_POSITIVE_MESSAGE })
  @Max(QUANTITY_MAX)
  quantity?: number;

  @Field(() => String, { nullable: true })
  @OptionalText(UNIT_MAX, 'unit')
  unit?: string;

  @Field(() => String, { nullable: true })
  @OptionalText(SECTION_MAX, 'section')
  section?: string;
}

export const MealTemplatePage = Paginated(MealTemplate, 'MealTemplatePage');
export type MealTemplatePage = InstanceType<typeof MealTemplatePage>;
export const DinnerPlanPage = Paginated(DinnerPlan, 'DinnerPlanPage');
export type DinnerPlanPage = InstanceType<typeof DinnerPlanPage>;
