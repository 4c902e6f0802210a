// The model of a seeded catalogue of `videos` videos (seed 7 unless given), built in memory: for the search
// tests that need many documents with the seed's vocabulary.
import { generateSeedRecords } from '../../../src/catalogue/seed-catalogue.ts';
import { openCatalogue } from '../../../src/catalogue/open-catalogue.ts';
import { readCatalogue } from '../../../src/catalogue/read-catalogue.ts';
import { createRecordWriter } from '../../../src/catalogue/write-records.ts';
import { buildModel, deriveCatalogue, type Model } from '../../../src/model/build-model.ts';

export function seededModel(videos: number, seed = 7): Model {
  const db = openCatalogue(':memory:');
  try {
    const write = createRecordWriter(db);
    db.transaction(() => {
      for (const record of generateSeedRecords({ videos, seed })) write(record);
    })();
    const catalogue = readCatalogue(db);
    return buildModel(catalogue, deriveCatalogue(catalogue), 'http://localhost:4321');
  } finally {
    db.close();
  }
}
