// Validates one line of an import on its own: JSON syntax, then the record's shape and bounds by
// the zod schemas of records.ts. A key the format does not define is named with the closest key it
// does define, so a typo (`thumbnail_url`, `tag`) is an error that says what was meant. References
// between records are checked after every line is staged (check-references.ts).
import type { z } from 'zod';
import { CatalogueRecord, CategoryRecord, ChannelRecord, VideoRecord, PlaylistRecord, CommentRecord, LiveRecord, AlertRecord } from './records.ts';

export interface LineError {
  readonly line: number;
  readonly field: string;
  readonly message: string;
}

const SCHEMAS: Readonly<Record<CatalogueRecord['kind'], z.ZodType>> = {
  category: CategoryRecord, channel: ChannelRecord, video: VideoRecord, playlist: PlaylistRecord,
  comment: CommentRecord, live: LiveRecord, alert: AlertRecord,
};
export const RECORD_KINDS = Object.keys(SCHEMAS) as CatalogueRecord['kind'][];

interface Def { type: string; innerType?: unknown; in?: unknown; element?: unknown; shape?: Record<string, unknown> }
const defOf = (schema: unknown): Def | undefined => (schema as { def?: Def } | undefined)?.def;

/** The keys an object of the format may hold at `path` inside a record of this kind. */
export function knownKeysAt(kind: CatalogueRecord['kind'], path: readonly PropertyKey[]): string[] {
  const unwrap = (schema: unknown): unknown => {
    let def = defOf(schema);
    while (def && (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'pipe')) {
      schema = def.type === 'pipe' ? def.in : def.innerType;
      def = defOf(schema);
    }
    return schema;
  };
  let schema = unwrap(SCHEMAS[kind]);
  for (const step of path) {
    const def = defOf(schema);
    if (def?.type === 'object' && typeof step === 'string') schema = unwrap(def.shape?.[step]);
    else if (def?.type === 'array') schema = unwrap(def.element);
    else return [];
  }
  const def = defOf(schema);
  return def?.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}

/** Edit distance between two keys, ignoring case, `_` and `-` (so `thumbnail_url` is `thumbnailUrl`). */
function distance(a: string, b: string): number {
  const x = a.toLowerCase().replace(/[_-]/g, '');
  const y = b.toLowerCase().replace(/[_-]/g, '');
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[y.length]!;
}

export function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(key, candidate);
    if (d < bestDistance) { best = candidate; bestDistance = d; }
  }
  return best;
}

const fieldOf = (path: readonly PropertyKey[]) => path.map(String).join('.') || '(record)';

/** Turns zod's issues into field errors: one per unknown key, duplicates (same field and message) once. */
export function describeIssues(kind: unknown, issues: readonly z.core.$ZodIssue[]): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  const seen = new Set<string>();
  const add = (field: string, message: string) => {
    const id = `${field}\n${message}`;
    if (!seen.has(id)) { seen.add(id); out.push({ field, message }); }
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && typeof kind === 'string' && kind in SCHEMAS) {
      const known = knownKeysAt(kind as CatalogueRecord['kind'], issue.path);
      const where = issue.path.length === 0 ? `a ${kind} record` : `${fieldOf(issue.path)} in a ${kind} record`;
      for (const key of issue.keys) {
        const closest = closestKey(key, known);
        add(fieldOf([...issue.path, key]), `is not a field of ${where}${closest ? ` (did you mean "${closest}"?)` : ''}; the known fields are ${known.join(', ')}`);
      }
    } else {
      add(fieldOf(issue.path), issue.message);
    }
  }
  return out;
}

export type ParsedLine =
  | { readonly record: CatalogueRecord; readonly errors?: undefined }
  | { readonly record?: undefined; readonly errors: LineError[] };

/** One line of an import: a record, or every error found in it. */
export function parseRecordLine(line: number, text: string): ParsedLine {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { errors: [{ line, field: '(line)', message: `is not valid JSON: ${(error as Error).message}` }] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { errors: [{ line, field: '(line)', message: 'must be a JSON object with a kind' }] };
  }
  const result = CatalogueRecord.safeParse(json);
  if (result.success) return { record: result.data };
  const kind = (json as { kind?: unknown }).kind;
  return { errors: describeIssues(kind, result.error.issues).map((e) => ({ line, ...e })) };
}

/** The key a record replaces by, and the field that holds it. */
export function keyOf(r: CatalogueRecord): { field: string; key: string } {
  if (r.kind === 'channel') return { field: 'username', key: r.username };
  if (r.kind === 'live') return { field: 'channel', key: r.channel };
  return { field: 'id', key: r.id };
}
