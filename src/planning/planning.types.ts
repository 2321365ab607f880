import { ExpectedVersion } from '../core/validation/expected-version.js';
import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';
import { JSONResolver } from 'graphql-scalars';
import { ArrayMaxSize, IsBoolean, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { LocalDate, UUID } from '../core/scalars.js';
import { StorableText } from '../core/storable-text.js';
import { IfPresent } from '../core/validation/if-present.js';
import { PageArgs, Paginated } from '../core/pagination.js';
import { ChecklistKey } from './checklist-key.js';
import { PerimeterTask } from './perimeter-task.entity.js';
import { OptionalText } from '../core/validation/text.js';
import { BoundedNumber, WholeNumber } from '../core/validation/numbers.js';

@ArgsType()
export class WeekStartArgs {
  @Field(() => LocalDate, { description: 'A Monday, YYYY-MM-DD.' })
  startDate!: string;
}

@ArgsType()
export class UpdateWeekArgs {
  @Field(() => UUID)
  weekId!: string;

  @Field(() => Boolean, { nullable: true })
  @IfPresent('isStressWeek')
  @IsBoolean()
  isStressWeek?: boolean;
}

@ArgsType()
export class DayIdArgs {
  @Field(() => UUID)
  dayId!: string;
}

@ArgsType()
export class UpdateDayArgs extends DayIdArgs {
  @Field(() => String, { nullable: true, description: 'null clears the notes.' })
  @OptionalText(10_000)
  notes?: string | null;

  @Field(() => Boolean, { nullable: true })
  @IfPresent('minimumMode')
  @IsBoolean()
  minimumMode?: boolean;

  @Field(() => Int, { nullable: true, description: '1-10; null clears it.' })
  @IsOptional()
  @WholeNumber(1, 10)
  mood?: number | null;

  @Field(() => Int, { nullable: true, description: '1-10; null clears it.' })
  @IsOptional()
  @WholeNumber(1, 10)
  energy?: number | null;

  @Field(() => Float, { nullable: true, description: 'Hours, 0-24; null clears it.' })
  @IsOptional()
  @BoundedNumber(0, 24)
  sleepHours?: number | null;
}

@ArgsType()
export class ToggleChecklistArgs extends DayIdArgs {
  @Field(() => ChecklistKey)
  key!: ChecklistKey;

  @Field(() => JSONResolver, { nullable: true, description: 'Water millilitres, a book id, meditation minutes or a weight in kg.' })
  value?: unknown;

  @ExpectedVersion()
  expectedVersion?: number | null;
}

@ArgsType()
export class PerimeterTaskListArgs extends PageArgs {}

@ArgsType()
export class CreatePerimeterTaskArgs {
  @Field(() => String)
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  @StorableText('title')
  title!: string;

  @Field(() => UUID, { nullable: true })
  personId?: string;
}

@ArgsType()
export class UpdatePerimeterTaskArgs {
  @Field(() => UUID)
  taskId!: string;

  @Field(() => String, { nullable: true })
  @IfPresent('title')
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  @StorableText('title')
  title?: string;

  @Field(() => UUID, { nullable: true, description: 'null detaches the person.' })
  personId?: string | null;
}

@ArgsType()
export class PerimeterTaskIdArgs {
  @Field(() => UUID)
  taskId!: string;
}

@ArgsType()
export class SetDayPerimeterArgs extends DayIdArgs {
  @Field(() => [UUID])
  @ArrayMaxSize(50)
  taskIds!: string[];
}

export const PerimeterTaskPage = Paginated(PerimeterTask, 'PerimeterTaskPage');

@ObjectType({ simpleResolvers: true, description: 'The bedtime targets in effect for a day (stress-week targets in a stress week).' })
export class BedtimeTargets {
  @Field(() => String) wakeTime!: string;
  @Field(() => String) inBedTime!: string;
  @Field(() => String) lightsOutTime!: string;
  @Field(() => Boolean) stressWeek!: boolean;
}
