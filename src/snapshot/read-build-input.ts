// What a build is made from: the catalogue's public records, checked (check-catalogue.ts names the
// record and field that would break the site), and its revision, read in one transaction.
import { checkCatalogue } from '../catalogue/check-catalogue.ts';
import { openCatalogue } from '../catalogue/open-catalogue.ts';
import type { PublicCatalogue } from '../catalogue/public-catalogue.ts';
import { readCatalogue } from '../catalogue/read-catalogue.ts';
import { readRevision } from '../catalogue/revision.ts';

export interface BuildInput {
  readonly catalogue: PublicCatalogue;
  readonly revision: string;
}

export function readBuildInput(file: string): BuildInput {
  const db = openCatalogue(file, { readonly: true });
  try {
    return db.transaction(() => {
      checkCatalogue(db);
      return { catalogue: readCatalogue(db), revision: readRevision(db) };
    })();
  } finally {
    db.close();
  }
}
