// Channels, playlists and URLs over the synthetic demo catalogue (300 videos).
import { defineChannelsContract } from './channels-contract.ts';

defineChannelsContract('seeded catalogue', { seed: { videos: 300 } });
