import { readFileSync } from 'node:fs';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { NOT_UNDOABLE } from './not-undoable.js';
import { UNDO_KINDS } from './undo-kinds.js';

// The checked-in schema is the built one (test/drift/schema-drift.test.ts keeps it true).
const mutations = Object.keys(buildSchema(readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8')).getMutationType()?.getFields() ?? {});
const undoable = new Set(UNDO_KINDS.map((kind) => kind.mutation));

describe('every write either offers an undo token or says why not', () => {
  it('names each mutation of the schema once: an undo kind or a reason', () => {
    const neither = mutations.filter((name) => !undoable.has(name) && !(name in NOT_UNDOABLE));
    const both = mutations.filter((name) => undoable.has(name) && name in NOT_UNDOABLE);
    expect({ neither, both }).toEqual({ neither: [], both: [] });
  });

  it('names no mutation the schema lacks', () => {
    const known = new Set(mutations);
    expect([...undoable, ...Object.keys(NOT_UNDOABLE)].filter((name) => !known.has(name))).toEqual([]);
  });

  it('keeps a kind name unique (a token names its kind)', () => {
    const names = UNDO_KINDS.map((kind) => kind.kind);
    expect(names.length).toBe(new Set(names).size);
  });
});
