import 'reflect-metadata';
import { IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, validate } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { BoundedNumber, WholeNumber } from './numbers.js';
import { HexColour, OptionalText, RequiredText, Text } from './text.js';

/** Each property's errors, in the order class-validator lists them (the order the API answers them). */
async function errorsOf(object: object): Promise<Record<string, string[]>> {
  const errors = await validate(object, { skipMissingProperties: true, forbidUnknownValues: false });
  return Object.fromEntries(errors.map((error) => [error.property, Object.values(error.constraints ?? {})]));
}

const make = <T extends object>(type: new () => T, values: Partial<T>): T => Object.assign(new type(), values);

// The stacks as they were written by hand before the shapes replaced them.
class HandWritten {
  @IsInt({ message: 'order must be a whole number' })
  @Min(0, { message: 'order must not be negative' })
  @Max(10, { message: 'order must be at most 10' })
  order?: number;

  @IsInt()
  @Min(1)
  @Max(10)
  mood?: number;

  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(24)
  sleepHours?: number;

  @IsOptional()
  @IsString()
  @MaxLength(5)
  notes?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(5, { message: 'unit must be at most 5 characters' })
  unit?: string | null;
}

class Shaped {
  @WholeNumber(0, 10, { int: 'order must be a whole number', min: 'order must not be negative', max: 'order must be at most 10' })
  order?: number;

  @WholeNumber(1, 10)
  mood?: number;

  @BoundedNumber(0, 24)
  sleepHours?: number;

  @OptionalText(5)
  notes?: string | null;

  @OptionalText(5, 'unit')
  unit?: string | null;
}

describe('the validation shapes', () => {
  it('answer what the hand-written stacks answered, in the same order', async () => {
    // Only values GraphQL lets through (a String argument is a string by then): Text adds storability, whose
    // error a non-string would add as well.
    const cases: Partial<HandWritten>[] = [
      { order: 0.5, mood: 0.5, sleepHours: Number.NaN },
      { order: -1.5, mood: 11.5, sleepHours: 25 },
      { order: 11, mood: 0, sleepHours: -1 },
      { order: 10, mood: 10, sleepHours: 24, notes: 'abcde', unit: 'kg' },
      { notes: 'abcdef', unit: 'abcdef' },
      { notes: null, unit: null },
    ];
    for (const values of cases) {
      const before = await errorsOf(make(HandWritten, values));
      expect(await errorsOf(make(Shaped, values as Partial<Shaped>)), JSON.stringify(values)).toEqual(before);
    }
    // The order is the stack's, bottom rule first (a reversed shape fails here).
    expect(await errorsOf(make(Shaped, { order: -1.5 }))).toEqual({ order: ['order must not be negative', 'order must be a whole number'] });
  });

  it('RequiredText lists "empty" before "blank", as the connector does; Text, HexColour and storability', async () => {
    class Named {
      @RequiredText('name', 5)
      name?: string;

      @Text(3, 'code')
      code?: string;

      @HexColour('color')
      color?: string;
    }
    expect(await errorsOf(make(Named, { name: '' }))).toEqual({ name: ['name must not be empty', 'name must not be blank'] });
    expect(await errorsOf(make(Named, { name: '      ' }))).toEqual({ name: ['name must be at most 5 characters', 'name must not be blank'] });
    expect(await errorsOf(make(Named, { name: 'a\u0000' }))).toEqual({ name: ['name must not contain a NUL character or invalid Unicode'] });
    expect(await errorsOf(make(Named, { name: 'Push', code: 'abcd', color: '#fff' }))).toEqual({
      code: ['code must be at most 3 characters'],
      color: ['color must be a hex colour #RRGGBB'],
    });
    expect(await errorsOf(make(Named, { name: 'Push', code: '', color: '#A0b1C2' }))).toEqual({});
  });
});
