// Validates every line of an import before anything is written: JSON, record shape, duplicate
// keys, and references that must resolve within the file or the existing catalogue.
import { CatalogueRecord } from './records.ts';
import type { NumberedLine } from './read-ndjson.ts';

export interface LineError {
  readonly line: number;
  readonly field: string;
  readonly message: string;
}

/** Keys already in the catalogue that records may refer to. */
export interface ExistingKeys {
  readonly categories: ReadonlySet<string>;
  readonly channels: ReadonlySet<string>;
  readonly videos: ReadonlySet<string>;
  /** comment id → its video id and parent id (null for a top-level comment) */
  readonly comments: ReadonlyMap<string, { videoId: string; parentId: string | null }>;
}

export interface Validated {
  readonly records: CatalogueRecord[];
  readonly errors: LineError[];
}

/** The key a record replaces by, and the field that holds it. */
function keyOf(r: CatalogueRecord): { field: string; key: string } {
  if (r.kind === 'channel') return { field: 'username', key: r.username };
  if (r.kind === 'live') return { field: 'channel', key: r.channel };
  return { field: 'id', key: r.id };
}

export function validateRecords(lines: readonly NumberedLine[], existing: ExistingKeys): Validated {
  const errors: LineError[] = [];
  const parsed: { line: number; record: CatalogueRecord }[] = [];
  const firstLine = new Map<string, number>();

  for (const { line, text } of lines) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      errors.push({ line, field: '(line)', message: `is not valid JSON: ${(error as Error).message}` });
      continue;
    }
    const result = CatalogueRecord.safeParse(json);
    if (!result.success) {
      for (const issue of result.error.issues) {
        errors.push({ line, field: issue.path.join('.') || '(record)', message: issue.message });
      }
      continue;
    }
    const record = result.data;
    const { field, key: id } = keyOf(record);
    const key = `${record.kind}:${id}`;
    const seen = firstLine.get(key);
    if (seen !== undefined) {
      errors.push({ line, field, message: `repeats ${record.kind} "${id}", already given on line ${seen}` });
      continue;
    }
    firstLine.set(key, line);
    parsed.push({ line, record });
  }

  const inFile = { categories: new Set<string>(), channels: new Set<string>(), videos: new Set<string>() };
  const comments = new Map(existing.comments);
  for (const { record: r } of parsed) {
    if (r.kind === 'category') inFile.categories.add(r.id);
    else if (r.kind === 'channel') inFile.channels.add(r.username);
    else if (r.kind === 'video') inFile.videos.add(r.id);
    else if (r.kind === 'comment') comments.set(r.id, { videoId: r.videoId, parentId: r.parentId ?? null });
  }
  const has = (kind: keyof typeof inFile, key: string) => inFile[kind].has(key) || existing[kind].has(key);
  const missing = (line: number, field: string, what: string, key: string) =>
    errors.push({ line, field, message: `refers to ${what} "${key}", which is neither in the file nor in the catalogue` });

  for (const { line, record: r } of parsed) {
    switch (r.kind) {
      case 'video':
        if (!has('channels', r.channel)) missing(line, 'channel', 'channel', r.channel);
        if (r.category !== undefined && !has('categories', r.category)) missing(line, 'category', 'category', r.category);
        break;
      case 'playlist':
        if (!has('channels', r.channel)) missing(line, 'channel', 'channel', r.channel);
        r.videos.forEach((id, i) => { if (!has('videos', id)) missing(line, `videos.${i}`, 'video', id); });
        break;
      case 'live':
        if (!has('channels', r.channel)) missing(line, 'channel', 'channel', r.channel);
        break;
      case 'comment': {
        if (!has('videos', r.videoId)) missing(line, 'videoId', 'video', r.videoId);
        if (r.parentId === undefined) break;
        const parent = comments.get(r.parentId);
        if (!parent) missing(line, 'parentId', 'comment', r.parentId);
        else if (parent.videoId !== r.videoId) errors.push({ line, field: 'parentId', message: `names comment "${r.parentId}", which belongs to another video` });
        else if (parent.parentId !== null) errors.push({ line, field: 'parentId', message: `names comment "${r.parentId}", which is itself a reply: replies are one level deep` });
        else if (r.parentId === r.id) errors.push({ line, field: 'parentId', message: 'names the comment itself' });
        break;
      }
      default:
        break;
    }
  }
  errors.sort((a, b) => a.line - b.line);
  return { records: parsed.map((p) => p.record), errors };
}
