// Every URL of every response resolves, over the synthetic demo catalogue (300 videos).
import { defineUrlContract } from './url-contract.ts';

defineUrlContract('seeded catalogue', { seed: { videos: 300 } });
