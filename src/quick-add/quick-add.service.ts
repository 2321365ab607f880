import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps } from '../core/context.js';
import { ValidationError } from '../core/errors.js';
import { serviceFor, type ServiceScope } from '../core/request-services.js';
import { SettingsService } from '../settings/settings.service.js';
import { loadDateReader, type QuickAddLocale } from './dates.js';
import type { Alternative, QuickKind } from './draft.js';
import { NotUnderstoodError } from './not-understood.js';
import { isParsed, parseLine } from './parse-line.js';
import { token, type Token } from './spans.js';
import { summarize } from './summaries.js';
import type { WriteScope } from './writer.js';
import { WRITERS } from './writers.js';

export interface QuickAddInput {
  text: string;
  dryRun?: boolean | null;
  locale?: QuickAddLocale | null;
}

/** The answer: what was understood, token by token, and the record made (or that would be made). */
export interface QuickAddAnswer {
  text: string;
  dryRun: boolean;
  created: boolean;
  kind: QuickKind;
  summary: string;
  record: { type: string; id: string | null; fields: Record<string, unknown> };
  tokens: Token[];
  assumptions: string[];
  alternatives: Alternative[];
  /**
   * Not answered: each record the line wrote, as its domain service answered it (none on a dry run), for a
   * caller that reacts to the write (undo reads it; a Public API answer keeps its record the same way).
   */
  written: { kind: QuickKind; record: { id: string } }[];
}

/**
 * Quick add: one line of text → one record, written by the domain service that owns it. The line is
 * read by the table-driven parser (parse-line.ts, pure), its names matched to the person's own records,
 * and — unless it is a dry run — the record written. Nothing is guessed silently: a line or a name not
 * understood answers 422 NOT_UNDERSTOOD with what was; every default filled in is listed in
 * `assumptions`; other readings are in `alternatives`.
 */
export class QuickAddService {
  private readonly scope: ServiceScope;

  constructor(em: EntityManager, deps: AppDeps) {
    this.scope = { deps, em };
  }

  static forRequest(scope: ServiceScope): QuickAddService {
    return new QuickAddService(scope.em, scope.deps);
  }

  /**
   * `options.timezone`: known already (an API key carries its owner's); `options.now`: the clock (tests);
   * `options.allow`: a caller's own check of the kind read, before any name is looked up or anything
   * written (the connector's scopes: the area of the kind).
   */
  async add(userId: string, input: QuickAddInput, options: { timezone?: string; now?: Date; allow?: (kind: QuickKind, dryRun: boolean) => void } = {}): Promise<QuickAddAnswer> {
    const dryRun = input.dryRun ?? false;
    const timezone = options.timezone ?? (await serviceFor(this.scope, SettingsService).timezoneOf(userId));
    await loadDateReader();
    const parsed = parseLine(input.text, { now: options.now ?? new Date(), timezone, locale: input.locale ?? 'en' });
    if (!isParsed(parsed)) throw new NotUnderstoodError(parsed.reason, { text: parsed.text, tokens: parsed.tokens, unknown: parsed.unknown });
    const { draft } = parsed;
    options.allow?.(draft.kind, dryRun);
    if (draft.problems?.length) {
      throw new ValidationError(draft.problems.map((p) => p.message).join('; '), draft.problems.map((p) => ({ path: [p.field], message: p.message })), { tokens: parsed.tokens });
    }
    const writer = WRITERS[draft.kind];
    const scope: WriteScope = { userId, timezone, service: (service) => serviceFor(this.scope, service) };
    const resolved = await writer.resolve(draft, scope);
    if (resolved.misses.length) {
      const unknown = resolved.misses.flatMap((m) => parsed.tokens.filter((t) => t.field === m.field || (m.field === 'people' && t.field === 'people' && String(t.value).includes(m.name))));
      const first = resolved.misses[0]!;
      const what = first.field.replace(/\[\d+\]/, '').replace(/Name$|Title$/, '').replace('exercises.name', 'exercise').replace('people', 'person');
      const message = first.name
        ? `No single ${what} of yours is named "${first.name}"${first.candidates.length ? `: did you mean ${first.candidates.map((c) => `"${c.name}"`).join(', ')}?` : ''}`
        : `Say which ${what}: ${first.candidates.length ? first.candidates.map((c) => `"${c.name}"`).join(', ') : `you have none`}`;
      throw new NotUnderstoodError(message, {
        text: parsed.text,
        tokens: parsed.tokens,
        unknown: unknown.length ? unknown : [token(parsed.text, 0, 0, `${what} not given`)],
        kind: draft.kind,
        candidates: resolved.misses.flatMap((m) => m.candidates),
        alternatives: parsed.alternatives,
      });
    }
    const fields = resolved.fields;
    const written = dryRun ? null : await writer.write(fields, scope);
    return {
      text: parsed.text,
      dryRun,
      created: !dryRun,
      kind: draft.kind,
      summary: summarize({ kind: draft.kind, fields }),
      record: { type: writer.type, id: written?.id ?? null, fields },
      tokens: parsed.tokens,
      assumptions: [...draft.assumptions, ...(resolved.assumptions ?? [])],
      alternatives: parsed.alternatives,
      written: written ? [{ kind: draft.kind, record: written }] : [],
    };
  }
}
