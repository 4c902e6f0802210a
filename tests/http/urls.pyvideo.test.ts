// Every URL of every response resolves, over the real pyvideo excerpt (catalogue-given thumbnails).
import { defineUrlContract } from './url-contract.ts';

defineUrlContract('pyvideo excerpt', { ndjson: 'tests/fixtures/pyvideo-excerpt.ndjson.gz' });
