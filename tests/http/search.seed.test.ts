// Search over the synthetic demo catalogue (300 videos).
import { defineSearchContract } from './search-contract.ts';

defineSearchContract('seeded catalogue', { seed: { videos: 300 } });
