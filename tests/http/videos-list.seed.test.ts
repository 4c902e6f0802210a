// The /v1/videos contract over the synthetic demo catalogue (400 videos).
import { defineListContract } from './list-contract.ts';

defineListContract('seeded catalogue', { seed: { videos: 400 } });
