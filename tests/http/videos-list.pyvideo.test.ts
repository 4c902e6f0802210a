// The /v1/videos contract over the real pyvideo excerpt (475 videos, 11 private, 13 unlisted).
import { defineListContract } from './list-contract.ts';

defineListContract('pyvideo excerpt', { ndjson: 'tests/fixtures/pyvideo-excerpt.ndjson.gz' });
