import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The argument rules are written once, in src/core/validation/ (RequiredText, Text, OptionalText,
 * HexColour, WholeNumber, BoundedNumber, OneOf, OneOfEnum): a hand-written copy of one of their
 * decorator stacks, or of their patterns and words, anywhere else drifts from the other surfaces.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const HOME = /^src\/core\/validation\//;

/** Each copy the vocabulary replaces, and the shape to use instead. */
const COPIES: { shape: string; copy: RegExp }[] = [
  { shape: 'RequiredText (a literal /\\S/)', copy: /\/\\S\// },
  { shape: 'RequiredText (NOT_BLANK is its rule)', copy: /\bMatches\(\s*NOT_BLANK\b/ },
  { shape: 'HexColour', copy: /\bMatches\(\s*HEX_COLOR\b/ },
  { shape: 'OneOf or OneOfEnum', copy: /\b(?:IsIn|IsEnum)\([^\n]*must be one of/ },
  // One rule a line, as a decorator (`@IsInt()`) or in a list of them (`IsInt(),`); `each` rules (lists) are other shapes.
  { shape: 'OptionalText', copy: /@?IsOptional\(\)[^\n]*\n\s*@?IsString\((?:\{(?![^}]*\beach\b)[^}]*\})?\)[^\n]*\n\s*@?MaxLength\(/ },
  { shape: 'Text', copy: /@?IsString\((?:\{(?![^}]*\beach\b)[^}]*\})?\)[^\n]*\n\s*@?MaxLength\([^\n]*\n\s*@?StorableText\(/ },
  { shape: 'WholeNumber', copy: /@?IsInt\((?:\{(?![^}]*\beach\b)[^}]*\})?\)[^\n]*\n\s*@?Min\(/ },
  { shape: 'BoundedNumber', copy: /@?IsNumber\(\s*(?:FINITE|\{\s*allowNaN:\s*false,\s*allowInfinity:\s*false\s*\})[^\n]*\n\s*@?Min\([^\n]*\n\s*@?Max\(/ },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$|test-helpers\.ts$/.test(name) ? [path] : [];
  });
}

/** `file:line  shape` for each copy in `text`. */
function copiesIn(file: string, text: string): string[] {
  return COPIES.flatMap(({ shape, copy }) => {
    const all = new RegExp(copy.source, 'g');
    return [...text.matchAll(all)].map((found) => `${file}:${text.slice(0, found.index).split('\n').length}  use ${shape}`);
  });
}

describe('the validation vocabulary', () => {
  it('is used, not copied: no hand-written stack of its rules outside src/core/validation/', () => {
    const copies = ['src', 'rest']
      .flatMap((dir) => sourceFiles(join(ROOT, dir)))
      .map((path) => relative(ROOT, path).split('\\').join('/'))
      .filter((path) => !HOME.test(path))
      .flatMap((path) => copiesIn(path, readFileSync(join(ROOT, path), 'utf8')));
    expect(copies, 'use the shape from src/core/validation/ instead').toEqual([]);
  });

  it('recognises the copies in the forms they were written (a planted one is found)', () => {
    const planted = [
      "  @Matches(/\\S/, { message: 'name must not be blank' })",
      "    Matches(NOT_BLANK, { message: 'title must not be blank' })(target, key);",
      "  @Matches(HEX_COLOR, { message: 'color must be a hex colour #RRGGBB' })",
      "  @IsEnum(TaskApplyTo, { message: 'applyTo must be one of this, following' })",
      "  @IsIn(CANVAS_ENTITY_TYPES, { message: `entityType must be one of ${CANVAS_ENTITY_TYPES.join(', ')}` })",
      '  @IsOptional()\n  @IsString()\n  @MaxLength(NOTES_MAX)',
      "  @IsOptional()\n  @IsString({ message: 'recurrence must be a string' })\n  @MaxLength(RECURRENCE_RULE_MAX)",
      "  @IsString()\n  @MaxLength(URL_MAX, { message: 'x' })\n  @StorableText('endpoint')",
      '  @IsInt()\n  @Min(0)\n  @Max(OFFSET_MINUTES_MAX)',
      "  @IsInt({ message: ORDER_MESSAGES.int })\n  @Min(0, { message: ORDER_MESSAGES.min })",
      '  @IsNumber({ allowNaN: false, allowInfinity: false })\n  @Min(0)\n  @Max(24)',
      "  @IsNumber(FINITE)\n  @Min(0.001, { message: 'x' })\n  @Max(GIRTH_MAX_CM)",
      "  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: TRAINING_MESSAGES.number('rpe') })\n  @Min(0.001, { message: TRAINING_MESSAGES.positive('pace') })\n  @Max(PACE_MAX)",
      "  @IsString({ message: 'q must be a string' })\n  @MaxLength(MAX, { message: TEXT_MESSAGES.tooLong('q', MAX) })\n  @StorableText('q')",
      "  const rules = [\n    IsInt({ message: 'x must be a whole number' }),\n    Min(0, { message: 'x must not be negative' }),\n  ];",
    ];
    for (const text of planted) expect(copiesIn('planted.ts', text), text).toHaveLength(1);
    // What the vocabulary does not cover stays allowed: a positive whole number, a list of strings.
    expect(copiesIn('fine.ts', "  @IsInt({ message: 'reps must be an integer' })\n  @IsPositive()\n  @Max(REPS_MAX)")).toEqual([]);
    expect(copiesIn('fine.ts', '  @IsOptional()\n  @IsString({ each: true })\n  @MaxLength(100, { each: true })')).toEqual([]);
  });
});
