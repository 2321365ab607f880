import 'reflect-metadata';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { Authorized, Ctx, Field, FieldResolver, getMetadataStorage, ID, ObjectType, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import { authChecker } from '../../src/accounts/auth-checker.js';
import { buildAppSchema } from '../../src/app/schema.js';
import { resolvers } from '../../src/app/resolvers.js';
import { Anonymous } from '../../src/core/authorization.js';
import { buildGraphQLSchema } from '../../src/graphql/build-schema.js';
import { isThinField } from '../../src/graphql/thin-field-resolvers.js';

/*
 * Relation fields resolve on a thin path (src/graphql/thin-field-resolvers.ts): access is checked once at
 * the root operation (src/accounts/authorization.test.ts checks every root declares it), so no relation
 * field may carry middleware or a "signed in" check of its own.
 *
 * The planted types and resolvers below stay in TypeGraphQL's store for the rest of their process, so this
 * file runs in a process of its own (vitest.config.ts puts every file that declares GraphQL types or
 * resolvers in the `process` project); in the api project's shared worker they broke the next file that
 * scans the store (src/app/schema.test.ts).
 */

/** `Type.field` of every `@FieldResolver` the app's resolvers declare, with its own roles and middlewares. */
function appFieldResolvers() {
  const storage = getMetadataStorage();
  return storage.fieldResolvers
    .filter((f) => (resolvers as Function[]).includes(f.target))
    .map((f) => ({
      key: `${storage.objectTypes.find((t) => t.target === f.getObjectType?.())?.name}.${f.schemaName}`,
      roles: f.roles,
      middlewares: f.middlewares,
    }));
}

function field(schema: GraphQLSchema, key: string) {
  const [typeName, fieldName] = key.split('.') as [string, string];
  const type = schema.getType(typeName);
  if (!isObjectType(type)) throw new Error(`${typeName} is no object type`);
  return type.getFields()[fieldName]!;
}

describe('relation fields', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await buildAppSchema();
  });

  it('carry no middleware of their own, and no role beyond the plan-gated ones listed', () => {
    const fields = appFieldResolvers();
    expect(fields.length).toBeGreaterThan(40);
    expect(fields.filter((f) => f.middlewares?.length).map((f) => f.key)).toEqual([]);
    expect(fields.filter((f) => f.roles?.length).map((f) => `${f.key}:${f.roles!.join()}`)).toEqual(['Webhook.stats:webhooks']);
  });

  it('resolve on the thin path, the week read\'s among them; only the plan-gated field keeps TypeGraphQL\'s', () => {
    const keys = appFieldResolvers().map((f) => f.key);
    expect(keys.filter((key) => !isThinField(field(schema, key)))).toEqual(['Webhook.stats']);
    for (const key of ['Week.days', 'Day.checklist', 'Day.perimeterTasks', 'Day.tasks', 'Task.category', 'ChecklistItem.required', 'Day.completed']) {
      expect(isThinField(field(schema, key)), key).toBe(true);
    }
  });
});

@ObjectType()
class PlantedThing {
  @Field(() => ID)
  id!: string;
}

@ObjectType()
class PlantedOpenThing {
  @Field(() => ID)
  id!: string;
}

@Authorized()
@Resolver(() => PlantedThing)
class PlantedThingResolver {
  @Query(() => PlantedThing)
  plantedThing(): PlantedThing {
    return { id: '1' };
  }

  @FieldResolver(() => String)
  plain(@Root() thing: PlantedThing, @Ctx() _ctx: unknown): string {
    return thing.id;
  }

  @UseMiddleware((_data, next) => next())
  @FieldResolver(() => String)
  withMiddleware(@Root() thing: PlantedThing): string {
    return thing.id;
  }
}

@Authorized()
@Resolver(() => PlantedOpenThing)
class PlantedOpenThingResolver {
  @Anonymous()
  @Query(() => PlantedOpenThing)
  plantedOpenThing(): PlantedOpenThing {
    return { id: '1' };
  }

  @FieldResolver(() => String)
  plain(@Root() thing: PlantedOpenThing): string {
    return thing.id;
  }
}

describe('the thin path is taken only where the root\'s check covers the field', () => {
  it('keeps TypeGraphQL\'s path for a field with middleware and for a type an anonymous root answers', async () => {
    const planted = await buildGraphQLSchema({ resolvers: [PlantedThingResolver, PlantedOpenThingResolver], listBounds: {}, authChecker });
    expect(isThinField(field(planted, 'PlantedThing.plain'))).toBe(true);
    expect(isThinField(field(planted, 'PlantedThing.withMiddleware'))).toBe(false);
    expect(isThinField(field(planted, 'PlantedOpenThing.plain'))).toBe(false);
    const resolve = field(planted, 'PlantedThing.plain').resolve!;
    expect(await resolve({ id: 'thing-1' }, {}, {}, undefined as never)).toBe('thing-1');
  });
});
