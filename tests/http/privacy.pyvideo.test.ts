// Privacy over the real pyvideo excerpt (11 private and 13 unlisted videos, held comments).
import { definePrivacyContract } from './privacy-contract.ts';

definePrivacyContract('pyvideo excerpt', { ndjson: 'tests/fixtures/pyvideo-excerpt.ndjson.gz' }, { relatedStride: 5 });
