// The catalogue's revision: a fresh random id written by every import and seed, in the same
// transaction as the data. A snapshot records the revision it was built from, so `npm start` can
// tell that the catalogue changed since and rebuild before serving.
import { randomUUID } from 'node:crypto';
import type { Catalogue } from './open-catalogue.ts';

export function markRevision(db: Catalogue): string {
  const revision = randomUUID();
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('revision', ?)").run(revision);
  return revision;
}

export function readRevision(db: Catalogue): string {
  const row = db.prepare("SELECT value FROM meta WHERE key = 'revision'").pluck().get() as string | undefined;
  return row ?? 'none';
}
