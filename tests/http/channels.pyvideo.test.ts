// Channels and playlists over the real pyvideo excerpt (4 channels, 8 playlists).
import { defineChannelsContract } from './channels-contract.ts';

defineChannelsContract('pyvideo excerpt', { ndjson: 'tests/fixtures/pyvideo-excerpt.ndjson.gz' });
