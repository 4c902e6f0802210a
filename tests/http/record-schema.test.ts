// The JSON Schema of catalogue import records (docs/catalogue.md) is published with the site: the
// document generated from the importer's own definitions, as JSON, with CORS.
import { describe, expect, it } from 'vitest';
import { buildRecordJsonSchema, RECORD_SCHEMA_PATH } from '../../src/catalogue/record-schema.ts';
import { decoded, header, type Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';

let api: Client;
useServedCatalogue({ seed: { videos: 20 } }, (h) => ({ api } = h));

describe(RECORD_SCHEMA_PATH, () => {
  it('publishes the schema generated from the import records', async () => {
    const response = await api.send(RECORD_SCHEMA_PATH);
    expect(response.status).toBe(200);
    expect(header(response, 'content-type')).toMatch(/^application\/(schema\+)?json/);
    expect(header(response, 'access-control-allow-origin')).toBe('*');
    expect(JSON.parse(decoded(response).toString('utf8'))).toEqual(buildRecordJsonSchema());
  });
});
