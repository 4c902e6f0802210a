// The JSON Schema of one import line, generated from the zod definitions of records.ts, so it can
// never say something the importer does not. Published at /schemas/catalogue-record.json by
// `npm run build:app` (scripts/build-record-schema.ts). It checks each record's shape and bounds;
// what a schema cannot say (references between records, real calendar dates, `..` in a media
// path, the live record's conditional dates) only the importer checks: docs/catalogue.md.
import { z } from 'zod';
import { CatalogueRecord } from './records.ts';

export const RECORD_SCHEMA_PATH = '/schemas/catalogue-record.json';

export function buildRecordJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(CatalogueRecord, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    $schema: schema['$schema'],
    $id: RECORD_SCHEMA_PATH,
    title: 'Catalogue import record',
    description: 'One line of an NDJSON catalogue for `npm run import` (docs/catalogue.md). Every object is closed: a key not listed is an error.',
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$schema')),
  };
}
