// The build's check of the catalogue it is about to publish: what would break the site is refused
// with the record and field named (docs/catalogue.md, "What the build refuses"). The import already
// refuses all of it; this catches a catalogue changed by other means (SQL by hand, an older version).
// Plain SQL scans (about 2 s of CPU at a million seeded videos); a build from the served snapshot's
// mark of the change log checks only what changed since (checkCatalogue's `changes`).
import type { Changes } from './change-log.ts';
import { findBrokenReferences, findBrokenReferencesAmong } from './check-references.ts';
import type { Catalogue } from './open-catalogue.ts';

export interface CatalogueProblem {
  /** `video "v1"` */
  readonly record: string;
  readonly field: string;
  readonly message: string;
}

export class CatalogueCheckError extends Error {
  readonly problems: readonly CatalogueProblem[];
  constructor(problems: readonly CatalogueProblem[], total: number) {
    const shown = problems.slice(0, 20).map((p) => `  ${p.record}: ${p.field}: ${p.message}`).join('\n');
    super(`the catalogue has ${total} record field${total === 1 ? '' : 's'} that would break the site; fix them (or re-import) and build again:\n${shown}${total > 20 ? `\n  ... and ${total - 20} more` : ''}`);
    this.problems = problems;
  }
}

const HTTP = "(v LIKE 'http://_%' OR v LIKE 'https://_%')";
const HTTP_OR_PATH = `(${HTTP} OR (v LIKE '/%' AND v NOT LIKE '//%'))`;
const NOT_HTTP = 'must be an absolute http(s) URL';
const NOT_MEDIA = 'must be an absolute http(s) URL or a path on this deployment such as /media/clip.webm';

interface Rule { readonly kind: 'video' | 'channel' | 'comment' | 'playlist' | 'category'; readonly sql: string; readonly message: string }

/** Each query yields (key, field, v): a value breaking the rule. */
const RULES: readonly Rule[] = [
  { kind: 'video', message: NOT_HTTP, sql: `SELECT id AS key, 'thumbnailUrl' AS field, thumbnail_url AS v FROM videos WHERE v IS NOT NULL AND NOT ${HTTP}` },
  { kind: 'video', message: NOT_MEDIA, sql: `SELECT video_id AS key, 'sources.' || position || '.url' AS field, url AS v FROM video_sources WHERE NOT ${HTTP_OR_PATH}` },
  { kind: 'video', message: NOT_MEDIA, sql: `SELECT video_id AS key, 'captions.' || position || '.url' AS field, url AS v FROM video_captions WHERE v IS NOT NULL AND NOT ${HTTP_OR_PATH}` },
  { kind: 'channel', message: NOT_HTTP, sql: `SELECT username AS key, 'avatarUrl' AS field, avatar_url AS v FROM channels WHERE v IS NOT NULL AND NOT ${HTTP}` },
  { kind: 'channel', message: NOT_HTTP, sql: `SELECT username AS key, 'bannerUrl' AS field, banner_url AS v FROM channels WHERE v IS NOT NULL AND NOT ${HTTP}` },
  { kind: 'comment', message: NOT_HTTP, sql: `SELECT id AS key, 'author.avatarUrl' AS field, author_avatar_url AS v FROM comments WHERE v IS NOT NULL AND NOT ${HTTP}` },
  { kind: 'video', message: 'must not be empty', sql: `SELECT id AS key, 'title' AS field, title AS v FROM videos WHERE trim(title) = ''` },
  { kind: 'playlist', message: 'must not be empty', sql: `SELECT id AS key, 'title' AS field, title AS v FROM playlists WHERE trim(title) = ''` },
  { kind: 'channel', message: 'must not be empty', sql: `SELECT username AS key, 'displayName' AS field, display_name AS v FROM channels WHERE trim(display_name) = ''` },
  { kind: 'category', message: 'must not be empty', sql: `SELECT id AS key, 'name' AS field, name AS v FROM categories WHERE trim(name) = ''` },
];

const LIMIT = 1000;
const quote = (value: unknown) => {
  const text = String(value);
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
};

/**
 * Records a change log may name before the whole catalogue is checked instead: beyond it, the scans
 * cost less than looking each record up.
 */
export const CHECK_CHANGES_AT_MOST = 100_000;

/**
 * Throws CatalogueCheckError naming every record field that would break the site. With `changes`
 * (what the change log names since a mark at which the catalogue passed this check: the served
 * snapshot's, built by the same code), only what those changes can have broken is checked: each
 * rule of one record for the records changed, and the references that hold or name one
 * (check-references.ts findBrokenReferencesAmong); the same problems as the whole check would find
 * (docs/catalogue.md, "What the build refuses").
 */
export function checkCatalogue(db: Catalogue, changes?: Changes): void {
  const among = changes !== undefined && changes.count <= CHECK_CHANGES_AT_MOST ? changes : undefined;
  const problems: CatalogueProblem[] = [];
  let total = 0;
  const add = (p: CatalogueProblem) => { total++; if (problems.length < LIMIT) problems.push(p); };
  for (const rule of RULES) {
    const keys = among && [...among[rule.kind]];
    if (keys !== undefined && keys.length === 0) continue;
    // `+key`: each rule scans its table and sorts what it found; ordering by the key itself would
    // walk the key's index with one table lookup a row (several times slower on a large
    // catalogue). `field` orders one record's problems: SQLite promises no order among equal keys.
    // Asked of changed records, `key IN` goes through the table's key instead of a scan.
    const sql = keys === undefined ? `${rule.sql} ORDER BY +key, field` : `${rule.sql} AND key IN (SELECT value FROM json_each(?)) ORDER BY +key, field`;
    for (const row of db.prepare(sql).iterate(...(keys === undefined ? [] : [JSON.stringify(keys)]))) {
      const { key, field, v } = row as { key: string; field: string; v: unknown };
      add({ record: `${rule.kind} "${key}"`, field, message: `${quote(v)}: ${rule.message}` });
    }
  }
  const broken = among ? findBrokenReferencesAmong(db, among, { limit: LIMIT }) : findBrokenReferences(db, { limit: LIMIT });
  for (const b of broken.found) {
    add({ record: `${b.kind} "${b.key}"`, field: b.field, message: b.problem === '' ? `refers to ${b.names}, which is not in the catalogue` : `names ${b.names}, which is ${b.problem}` });
  }
  total += broken.total - broken.found.length;
  if (total > 0) throw new CatalogueCheckError(problems, total);
}
