// Word lists for the synthetic demo catalogue (generate-seed-records.ts). Templates use `{topic}`
// (as written), `{Topic}` (first letter capitalised), `{other}`, `{n}`, `{year}`, `{channel}`,
// `{category}`, `{time}`, `{weekday}` and `{name}`; seed-text.ts fills them.

export interface SeedCategory {
  readonly id: string;
  readonly name: string;
  /** Share of channels whose main category this is (relative). */
  readonly weight: number;
  readonly topics: readonly string[];
  readonly tags: readonly string[];
  readonly titles: readonly string[];
  /** Words a channel of this category puts after a name: "Maya Plays". */
  readonly suffixes: readonly string[];
}

export const CATEGORIES: readonly SeedCategory[] = [
  {
    id: 'music', name: 'Music', weight: 14,
    topics: ['lo-fi beats', 'jazz piano', 'synthwave', 'acoustic covers', 'drum grooves', 'music theory',
      'chord progressions', 'bass lines', 'orchestral scoring', 'vocal warm-ups', 'home studio mixing',
      'vinyl crate digging', 'modular synths', 'guitar solos', 'songwriting', 'live looping', 'folk ballads',
      'hip-hop production', 'ambient textures', 'choir arrangements', 'bossa nova', 'string quartets'],
    tags: ['music', 'piano', 'guitar', 'lofi', 'jazz', 'synth', 'cover', 'producer', 'beats', 'mixing',
      'songwriting', 'music theory', 'drums', 'bass', 'ambient', 'vocals', 'live music', 'orchestra', 'vinyl',
      'hip hop', 'chill', 'instrumental'],
    titles: ['{Topic} Mix to Study and Relax', '{Topic} Session (Live)', 'Learn {topic} in {n} Minutes',
      '{Topic}: Behind the Track', 'One Hour of {topic}', 'Writing a Song With {topic}'],
    suffixes: ['Music', 'Sounds', 'Sessions', 'Records', 'Beats', 'Audio', 'Keys', 'Tunes'],
  },
  {
    id: 'gaming', name: 'Gaming', weight: 16,
    topics: ['speedruns', 'open-world RPGs', 'retro platformers', 'city builders', 'roguelikes', 'co-op shooters',
      'indie horror', 'racing sims', 'puzzle games', 'strategy campaigns', 'fighting game combos', 'survival crafting',
      'pixel art games', 'esports finals', 'game design', 'boss fights', 'modding', 'VR games', 'tabletop RPGs',
      'chess openings', 'rhythm games', 'farming sims'],
    tags: ['gaming', 'gameplay', 'lets play', 'walkthrough', 'speedrun', 'rpg', 'indie games', 'retro gaming',
      'strategy', 'esports', 'pc gaming', 'console', 'multiplayer', 'game design', 'boss fight', 'modding', 'vr',
      'chess', 'roguelike', 'horror games', 'no commentary', 'playthrough'],
    titles: ['{Topic} Let\'s Play, Episode {n}', '{Topic} Speedrun Attempts', 'Ranking the {topic} I Played in {year}',
      'Beating {topic} Without Taking Damage', '{Topic}: Hardest Moments', 'Live: {topic} With Viewers'],
    suffixes: ['Plays', 'Gaming', 'Arcade', 'Games', 'Quest', 'Respawn', 'Pixel', 'GG'],
  },
  {
    id: 'education', name: 'Education', weight: 10,
    topics: ['calculus', 'world history', 'grammar', 'photosynthesis', 'the French Revolution', 'linear algebra',
      'probability', 'ancient Rome', 'study techniques', 'economics', 'philosophy', 'geography', 'statistics',
      'poetry', 'chemistry basics', 'the human brain', 'climate science', 'exam prep', 'public speaking',
      'learning languages', 'the Silk Road', 'plate tectonics'],
    tags: ['education', 'lesson', 'learning', 'study', 'math', 'history', 'science', 'exam', 'lecture',
      'homework help', 'teacher', 'university', 'school', 'languages', 'philosophy', 'economics', 'geography',
      'statistics', 'literature', 'study with me', 'crash course', 'notes'],
    titles: ['{Topic}: Lecture {n}', 'Understanding {topic} Step by Step', '{Topic} Made Simple',
      'A Short History of {topic}', '{Topic} Revision Session', 'Ten Questions About {topic}'],
    suffixes: ['Academy', 'Explains', 'Learning', 'Classroom', 'Lessons', 'School', 'Notes', 'Tutor'],
  },
  {
    id: 'science-tech', name: 'Science & Technology', weight: 13,
    topics: ['TypeScript', 'Rust', 'SQLite', 'black holes', 'quantum computing', 'home servers',
      'mechanical keyboards', 'Raspberry Pi', 'machine learning', '3D printing', 'rocket engines', 'CRISPR',
      'solar panels', 'electric cars', 'web performance', 'Linux', 'compilers', 'robotics', 'smartphone cameras',
      'space telescopes', 'databases', 'fusion energy'],
    tags: ['technology', 'programming', 'coding', 'typescript', 'javascript', 'rust', 'sqlite', 'linux', 'space',
      'physics', 'engineering', 'electronics', 'raspberry pi', 'ai', 'machine learning', '3d printing', 'robotics',
      'astronomy', 'biology', 'web development', 'open source', 'hardware'],
    titles: ['Building a {topic} Project From Scratch', '{Topic} in {n} Lines of Code', '{Topic}: How It Actually Works',
      '{Topic} Benchmarked: Surprising Results', 'I Rebuilt My Setup Around {topic}', '{Topic} News Roundup'],
    suffixes: ['Labs', 'Tech', 'Codes', 'Science', 'Bytes', 'Engineering', 'Dev', 'Systems'],
  },
  {
    id: 'sports', name: 'Sports', weight: 8,
    topics: ['marathon training', 'basketball drills', 'football tactics', 'climbing technique', 'tennis serves',
      'cycling climbs', 'swimming form', 'skateboarding tricks', 'yoga flows', 'strength training', 'surfing',
      'golf swings', 'boxing footwork', 'ski touring', 'trail running', 'volleyball', 'table tennis',
      'cricket batting', 'rowing', 'the transfer window', 'mobility routines', 'sprint starts'],
    tags: ['sports', 'fitness', 'workout', 'training', 'running', 'football', 'basketball', 'tennis', 'cycling',
      'climbing', 'yoga', 'gym', 'highlights', 'match analysis', 'skateboarding', 'surfing', 'golf', 'boxing',
      'marathon', 'coaching', 'athlete', 'stretching'],
    titles: ['{Topic}: Full Session', 'Match Highlights and {topic} Analysis', '{n}-Week {topic} Plan',
      '{Topic} Drills You Can Do at Home', 'Pro Coach Reacts to {topic}', '{Topic} Challenge With Friends'],
    suffixes: ['Training', 'Sport', 'Athletics', 'Fitness', 'Coaching', 'Performance', 'Club', 'Moves'],
  },
  {
    id: 'news', name: 'News & Politics', weight: 6,
    topics: ['the election', 'interest rates', 'housing prices', 'the climate summit', 'energy markets',
      'local elections', 'tech regulation', 'the budget', 'the trade deal', 'wildfire season', 'space launches',
      'public transport', 'the heatwave', 'supply chains', 'AI policy', 'healthcare reform', 'the jobs report',
      'city council', 'the storm', 'fact checks', 'the census', 'water rights'],
    tags: ['news', 'politics', 'breaking news', 'analysis', 'economy', 'election', 'climate', 'policy', 'world news',
      'interview', 'explainer', 'fact check', 'report', 'local news', 'business', 'markets', 'debate', 'weather',
      'press conference', 'investigation', 'daily briefing', 'opinion'],
    titles: ['Breaking: {topic} Update', '{Topic}: What We Know So Far', 'Explainer: {topic}',
      'Evening Briefing: {topic} and More', 'Debate Night: {topic}', '{Topic} in Five Charts'],
    suffixes: ['News', 'Report', 'Daily', 'Dispatch', 'Briefing', 'Weekly', 'Desk', 'Wire'],
  },
  {
    id: 'comedy', name: 'Comedy', weight: 7,
    topics: ['sketches', 'stand-up', 'office life', 'roommates', 'parenting', 'first dates', 'group chats',
      'airport security', 'job interviews', 'family dinners', 'customer service', 'gym culture', 'tech support',
      'wedding speeches', 'road trips', 'bad cooking', 'improv', 'parodies', 'awkward moments', 'video calls',
      'moving house', 'holiday shopping'],
    tags: ['comedy', 'funny', 'sketch', 'stand up', 'parody', 'improv', 'satire', 'skit', 'jokes', 'laugh',
      'relatable', 'prank', 'roast', 'bloopers', 'sitcom', 'humor', 'memes', 'comedy special', 'characters',
      'short film', 'family', 'office'],
    titles: ['{Topic} Gone Wrong', '{Topic}: Every Cliché at Once', '{Topic} (Sketch)', 'Stand-Up: {n} Minutes on {topic}',
      'If {topic} Were Honest', '{Topic} Bloopers'],
    suffixes: ['Comedy', 'Sketches', 'Laughs', 'Jokes', 'Improv', 'Bits', 'Funnies', 'Crew'],
  },
  {
    id: 'film-animation', name: 'Film & Animation', weight: 7,
    topics: ['stop-motion', 'short films', '2D animation', 'color grading', 'storyboarding', 'visual effects',
      'cinematography', 'movie reviews', 'documentaries', '3D modelling', 'character design', 'trailers',
      'screenwriting', 'film noir', 'sound design', 'anime', 'editing rhythm', 'practical effects',
      'behind the scenes', 'title sequences', 'lighting setups', 'motion graphics'],
    tags: ['animation', 'film', 'short film', 'filmmaking', 'cinematography', 'vfx', 'editing', 'blender', '3d',
      'stop motion', 'movie review', 'trailer', 'documentary', 'anime', 'storyboard', 'color grading',
      'sound design', 'behind the scenes', 'cinema', 'screenwriting', 'motion graphics', 'indie film'],
    titles: ['{Topic}: A Short Film', 'Making Of: {topic}', '{Topic} Breakdown', 'Animating {topic} in {n} Days',
      '{Topic}: Why It Works So Well', '{Topic} Showreel {year}'],
    suffixes: ['Films', 'Studio', 'Animation', 'Pictures', 'Frames', 'Cinema', 'Motion', 'Reel'],
  },
  {
    id: 'travel', name: 'Travel & Events', weight: 8,
    topics: ['Lisbon', 'Kyoto', 'Patagonia', 'Iceland', 'the Scottish Highlands', 'Marrakech', 'Hanoi street food',
      'night trains', 'Norwegian fjords', 'the Alps', 'Mexico City', 'Cape Town', 'budget backpacking', 'van life',
      'island hopping', 'New Zealand', 'Istanbul', 'Seoul', 'the Camino', 'desert road trips', 'Tasmania',
      'the Dolomites'],
    tags: ['travel', 'vlog', 'travel vlog', 'backpacking', 'adventure', 'hiking', 'road trip', 'food tour', 'city guide',
      'budget travel', 'van life', 'trains', 'island', 'mountains', 'festival', 'solo travel', 'europe', 'asia',
      'south america', 'africa', 'drone', 'walking tour'],
    titles: ['{Topic} Travel Vlog', '48 Hours in {topic}', '{Topic} on a Budget', 'Walking Tour: {topic} at Dawn',
      'Our {n}-Day {topic} Itinerary', 'First Time in {topic}'],
    suffixes: ['Travels', 'Journeys', 'Abroad', 'Wanders', 'Roams', 'Adventures', 'Trails', 'Passport'],
  },
  {
    id: 'howto', name: 'Howto & Style', weight: 11,
    topics: ['sourdough', 'knife skills', 'home repair', 'woodworking', 'sewing', 'skincare', 'meal prep',
      'gardening', 'bike maintenance', 'painting walls', 'budgeting', 'decluttering', 'houseplants', 'knitting',
      'coffee brewing', 'hair braiding', 'fixing a leaky tap', 'camping gear', 'car care', 'pottery',
      'fermentation', 'tiling'],
    tags: ['howto', 'diy', 'tutorial', 'cooking', 'recipe', 'baking', 'woodworking', 'sewing', 'skincare', 'garden',
      'home improvement', 'repair', 'crafts', 'knitting', 'coffee', 'style', 'fashion', 'beauty', 'organizing',
      'life hacks', 'pottery', 'step by step'],
    titles: ['How to Start With {topic}', '{Topic} for Absolute Beginners', '{n} {topic} Tricks I Wish I Knew',
      'Fixing My Worst {topic} Mistakes', 'Weekend Project: {topic}', '{Topic}, Step by Step'],
    suffixes: ['DIY', 'Workshop', 'Kitchen', 'Makes', 'Home', 'Crafts', 'Style', 'Fixes'],
  },
];

/** Title templates any category may use. */
export const TITLES: readonly string[] = [
  '{Topic} Guide for Beginners ({year})', 'Live: {topic} Q&A', 'I Tried {topic} for {n} Days',
  'Top {n} {topic} Tips', '{Topic} Explained in {n} Minutes', 'The Truth About {topic}', '{Topic}: Full Tutorial',
  'The Case for {topic}', '{Topic}, Part {n}', 'Getting Started With {topic}', '{Topic} Deep Dive',
  '{n} Mistakes Everyone Makes With {topic}', 'Live Stream: {topic} Marathon', '{Topic} Vlog #{n}',
  'Reacting to {topic}', 'How I Learned {topic}', '{Topic} in {year}: What Changed', 'A Calm Evening of {topic}',
  '{Topic} vs {other}', 'Building With {topic}: Day {n}', 'The Ultimate {topic} Guide', '{Topic} Challenge!',
  'Relaxing {topic} (No Talking)', 'Weekly {topic} Roundup', 'My {topic} Journey, Week {n}', '{Topic} Masterclass',
  'Answering Your {topic} Questions', '{Topic} and {other}: A Conversation', '{Topic}: Worth It in {year}?',
  'Unboxing the New {topic} Gear',
];

/** Tags any category may use, most common first. */
export const GENERAL_TAGS: readonly string[] = [
  'tutorial', 'beginner', 'live', 'vlog', '4k', 'review', 'guide', 'tips', 'explained', 'how to', 'shorts',
  'podcast', 'interview', 'reaction', 'challenge', 'q&a', 'relaxing', 'asmr', 'documentary', 'behind the scenes',
  'compilation', 'highlights', 'timelapse', 'analysis', 'deep dive', 'unboxing', 'top 10', 'for beginners',
  'advanced', 'step by step', 'series', 'episode', 'livestream', 'premiere', 'new', 'update', 'hd', 'family friendly',
  'weekly', 'daily', 'story', 'inspiration', 'motivation', 'calm', 'no talking', 'study', 'morning routine',
  'weekend', 'experiment', 'comparison', 'myths', 'history', 'explainer', 'case study', 'walkthrough', 'setup',
  'tour', 'vlogmas', 'summer', 'winter', 'autumn', 'spring', 'retro', 'classic', 'budget', 'minimalism',
  'productivity', 'collab', 'q and a', 'community', 'subscriber special', 'anniversary', 'the basics', 'masterclass',
  'workshop', 'essentials', 'diary', 'field recording', 'pov', 'captioned',
];

export const FIRST_NAMES: readonly string[] = [
  'Maya', 'Leo', 'Aisha', 'Noah', 'Priya', 'Mateo', 'Chen', 'Sofia', 'Kwame', 'Elena', 'Yuki', 'Omar', 'Ingrid',
  'Diego', 'Amara', 'Felix', 'Hana', 'Jonas', 'Lucía', 'Ravi', 'Zoë', 'Tomás', 'Nadia', 'Samir', 'Greta', 'Kofi',
  'Mei', 'Arjun', 'Lena', 'Hugo', 'Imani', 'Oskar', 'Rosa', 'Tariq', 'Astrid', 'Bruno', 'Chloe', 'Dmitri', 'Esme',
  'Farah', 'Gabriel', 'Ines', 'Jamal', 'Kira', 'Luca', 'Mira', 'Nikhil', 'Olga', 'Pablo', 'Quinn', 'Rahel', 'Sven',
  'Talia', 'Umar', 'Vera', 'Wen', 'Ximena', 'Yara', 'Zane', 'Ada', 'Ben', 'Clara', 'Dev', 'Eva', 'Finn', 'Gia',
  'Hiro', 'Iris', 'Jude', 'Kai', 'Lila', 'Milo', 'Nina', 'Otto', 'Pia', 'Remy', 'Sana', 'Theo', 'Uma', 'Wren',
];

export const LAST_NAMES: readonly string[] = [
  'Okafor', 'Chen', 'García', 'Novak', 'Haddad', 'Kowalski', 'Tanaka', 'Singh', 'Moreau', 'Andersen', 'Silva',
  'Mensah', 'Rossi', 'Park', 'Ivanova', 'Nguyen', 'Fischer', 'Ahmed', 'Costa', 'Lindqvist', 'Murphy', 'Osei',
  'Petrov', 'Sato', 'Khan', 'Dubois', 'Jensen', 'Alvarez', 'Kim', 'Popescu', 'Mbeki', 'Larsen', 'Bianchi', 'Patel',
  'Yilmaz', 'Schmidt', 'Romero', 'Walsh', 'Abebe', 'Horvath', 'Ito', 'Nakamura', 'Oliveira', 'Reyes', 'Suzuki',
  'Torres', 'Vargas', 'Weber', 'Young', 'Zhang',
];

export const ADJECTIVES: readonly string[] = [
  'Quiet', 'Curious', 'Bright', 'Midnight', 'Golden', 'Rusty', 'Electric', 'Tiny', 'Wild', 'Honest', 'Lazy', 'Brave',
  'Cosmic', 'Salty', 'Velvet', 'Northern', 'Analog', 'Paper', 'Neon', 'Silver', 'Hidden', 'Gentle', 'Loud', 'Clever',
  'Sunny', 'Stormy', 'Hungry', 'Patient', 'Lucky', 'Restless', 'Humble', 'Bold', 'Little', 'Grand', 'Open', 'Second',
  'Slow', 'Rapid', 'Crooked', 'Hollow',
];

export const NOUNS: readonly string[] = [
  'Fox', 'Lantern', 'Orbit', 'Harbor', 'Circuit', 'Maple', 'Comet', 'Anchor', 'Falcon', 'Garden', 'Compass', 'Pixel',
  'Atlas', 'Kettle', 'Beacon', 'Canyon', 'Meadow', 'Otter', 'Signal', 'Summit', 'Tide', 'Voyage', 'Willow', 'Ember',
  'Forge', 'Glacier', 'Hive', 'Island', 'Juniper', 'Kite', 'Lighthouse', 'Monsoon', 'Nebula', 'Oak', 'Pebble',
  'Quarry', 'Raven', 'Sparrow', 'Thistle', 'Umbrella', 'Valley', 'Walrus', 'Yarrow', 'Zephyr', 'Bicycle', 'Cactus',
  'Dune', 'Engine', 'Feather', 'Grove', 'Heron', 'Inkwell', 'Jetty', 'Koi', 'Lagoon', 'Magnet', 'Nomad', 'Owl',
  'Prism', 'Radio',
];

/** Video description sentences. */
export const DESCRIPTIONS: readonly string[] = [
  'In this video we take a close look at {topic}.', 'Everything you need to know about {topic}, in one place.',
  'Timestamps are in the first comment.', 'Subscribe to {channel} for new {category} videos every week.',
  'Thanks to everyone who joined the live chat!', 'This one took {n} days to film and edit.',
  'Questions about {topic}? Leave them below and I will answer in the next video.',
  'Part of an ongoing series on {topic} and {other}.', 'Filmed in {year}; some details may have changed since.',
  'Links to everything mentioned are on our website.', 'No sponsors, no ads read: just {topic}.',
  'We compare {topic} with {other} and pick a winner.', 'Captions are available in several languages.',
  'Music licensed for this video; see the credits at the end.', 'Recorded live, lightly edited.',
  'A beginner-friendly walk through {topic}.', 'Chapters: intro, the basics, going further, wrap-up.',
  'Support the channel by sharing this with a friend who loves {topic}.', 'Corrections are pinned in the comments.',
  'Episode {n} of the series.',
];

export const CHANNEL_DESCRIPTIONS: readonly string[] = [
  '{channel} makes {category} videos about {topic} and {other}.', 'New videos every {weekday}.',
  'Hi, I am {name}! I share what I learn about {topic}.', 'Independent {category} channel since {year}.',
  'Long-form explainers, live streams and the occasional short.', 'Business enquiries via the about page.',
  'A small team making honest videos about {topic}.', 'Join the live streams every {weekday} evening.',
  'Everything here is filmed, edited and captioned in-house.', 'Calm, careful and mostly about {topic}.',
];

export const WEEKDAYS: readonly string[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const COMMENTS: readonly string[] = [
  'Great explanation of {topic}, thank you!', 'The part at {time} finally made it click for me.',
  'Been waiting for a video on {topic} for ages.', 'Could you do one on {other} next?',
  'Rewatching this years later and it still holds up.', 'The editing on this is so good.',
  'I disagree about {topic}, but I respect the argument.', 'This deserves way more views.',
  'Who else is here from the live stream?', 'Small correction at {time}: it is the other way round.',
  'My kids loved this one.', 'Saving this for later, thanks {name}!', 'The audio is a bit quiet in the second half.',
  'First time here and instantly subscribed.', 'I tried this myself and it worked first time.',
  'Can we get a part two?', 'This is the calmest video on the internet.', 'Underrated channel, honestly.',
  '{time} had me laughing out loud.', 'Thank you for adding captions!', 'What camera do you use for these?',
  'The comparison with {other} was really helpful.', 'I have watched this {n} times now.',
  'Sharing this with my study group.', 'Love the new intro.',
];

export const REPLIES: readonly string[] = [
  'Agreed, {time} is the best part.', 'Thanks! Part two is already in the works.', 'Same here, it finally clicked.',
  'Good catch, I pinned a correction.', 'Try watching at 1.25x, it helps.', 'You are right, my mistake.',
  'Where did you get that idea?', 'Came here to say exactly this.', 'Not sure about that, see {time}.',
  'Glad it helped!', 'There is a longer video on {topic} on the channel.', 'Haha, same.',
];

export const SPAM: readonly string[] = [
  'Free gift cards at my channel!!! Click now', 'Check out my channel for 100% real followers',
  'Earn $5000 a week from home, message me', 'Sub4sub anyone? reply fast', 'Crypto giveaway live now, link in bio',
];

export const PLAYLIST_TITLES: readonly string[] = [
  '{Topic} Essentials', 'Best of {year}', 'Live Streams', 'Start Here', '{Topic} Series', 'Shorts',
  'Behind the Scenes', 'Favourites', '{Topic} for Beginners', 'Full Episodes', '{Topic} and {other}', 'Q&A Sessions',
];

export const LIVE_TITLES: readonly string[] = [
  'Live: {topic} with the community', '{Topic} all night', 'Sunday {topic} stream', 'Q&A: ask me about {topic}',
  'Premiere: {topic}, part {n}', 'Building {topic} live',
];

export const CAPTION_LANGUAGES: readonly { readonly lang: string; readonly label: string }[] = [
  { lang: 'es', label: 'Español' }, { lang: 'fr', label: 'Français' }, { lang: 'de', label: 'Deutsch' },
  { lang: 'pt-BR', label: 'Português (Brasil)' }, { lang: 'ja', label: '日本語' }, { lang: 'hi', label: 'हिन्दी' },
  { lang: 'ko', label: '한국어' }, { lang: 'ar', label: 'العربية' },
];

/** Video languages other than English, for the minority of videos that have one. */
export const OTHER_LANGUAGES: readonly string[] = ['es', 'fr', 'de', 'pt-BR', 'ja', 'hi', 'ko'];
