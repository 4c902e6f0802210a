// Privacy over the synthetic demo catalogue (400 videos, with private videos and held/spam comments).
import { definePrivacyContract } from './privacy-contract.ts';

definePrivacyContract('seeded catalogue', { seed: { videos: 400 } }, { relatedStride: 3 });
