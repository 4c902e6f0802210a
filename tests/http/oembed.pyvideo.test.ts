// oEmbed over the real pyvideo excerpt: real titles, some with characters markup must escape.
import { defineOEmbedContract } from './oembed-contract.ts';

defineOEmbedContract('pyvideo excerpt', { ndjson: 'tests/fixtures/pyvideo-excerpt.ndjson.gz' });
