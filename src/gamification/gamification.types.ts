import { ArgsType, Field, ID, Int, ObjectType } from 'type-graphql';
import { DateTimeISO, UUID } from '../core/scalars.js';

@ObjectType({ simpleResolvers: true, description: 'Current streaks, in the user\'s time zone.' })
export class GamificationStreaks {
  @Field(() => Int, { description: 'Consecutive completed days, ending today or yesterday.' })
  checklist!: number;

  @Field(() => Int, { description: 'Consecutive weeks with at least 3 training sessions, ending this week or last week.' })
  training!: number;
}

@ObjectType({ simpleResolvers: true })
export class GamificationStats {
  @Field(() => Int, { description: 'Total XP: the sum of what your current actions earned.' })
  xp!: number;

  @Field(() => Int, { description: 'Level L+1 is reached at 100 × L × (L+1) / 2 XP.' })
  level!: number;

  @Field(() => Int, { description: 'XP still needed for the next level.' })
  xpToNextLevel!: number;

  @Field(() => Int, { description: 'Total XP at which the next level starts.' })
  nextLevelAt!: number;

  @Field(() => Int, { description: 'floor(XP ÷ 10) less what was spent (never below 0).' })
  coins!: number;

  @Field(() => Int)
  coinsSpent!: number;

  @Field(() => GamificationStreaks)
  streaks!: GamificationStreaks;

  @Field(() => Int, { description: 'Achievements unlocked.' })
  achievementCount!: number;

  @Field(() => Int, { description: 'Achievements in the catalog.' })
  achievementTotal!: number;
}

@ObjectType({ simpleResolvers: true, description: 'A shop item the character owns.' })
export class EquipmentItem {
  @Field(() => ID)
  itemId!: string;

  @Field(() => String)
  key!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  slot!: string;

  @Field(() => Int, { description: 'How many were bought.' })
  quantity!: number;
}

@ObjectType({ simpleResolvers: true })
export class GamificationCharacter {
  @Field(() => GamificationStats)
  stats!: GamificationStats;

  @Field(() => [EquipmentItem])
  equipment!: EquipmentItem[];

  @Field(() => String, { description: 'A description of the avatar from the level and the equipment.' })
  avatar!: string;
}

@ObjectType('Achievement', { simpleResolvers: true })
export class AchievementView {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  key!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => DateTimeISO, { nullable: true, description: 'When you unlocked it; null while locked.' })
  unlockedAt!: Date | null;
}

@ObjectType('ShopItem', { simpleResolvers: true })
export class ShopItemView {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  key!: string;

  @Field(() => String)
  name!: string;

  @Field(() => String)
  description!: string;

  @Field(() => String)
  slot!: string;

  @Field(() => Int, { description: 'Coins.' })
  price!: number;

  @Field(() => Boolean, { description: 'Whether your coins cover the price now.' })
  affordable!: boolean;
}

@ObjectType({ simpleResolvers: true })
export class ShopPurchase {
  @Field(() => ID)
  id!: string;

  @Field(() => ShopItemView)
  item!: ShopItemView;

  @Field(() => Int, { description: 'Coins paid.' })
  price!: number;

  @Field(() => Int, { description: 'Coins left after the purchase.' })
  coins!: number;

  @Field(() => DateTimeISO)
  purchasedAt!: Date;
}

@ArgsType()
export class ShopItemIdArgs {
  @Field(() => UUID)
  itemId!: string;
}
