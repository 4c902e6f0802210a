// Search over the real pyvideo excerpt (475 talks with long real titles and descriptions).
import { defineSearchContract } from './search-contract.ts';

defineSearchContract('pyvideo excerpt', { ndjson: 'tests/fixtures/pyvideo-excerpt.ndjson.gz' });
