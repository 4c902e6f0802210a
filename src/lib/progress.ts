// Progress lines of long operations (build, seed, export): how far out of what total, the
// percentage and the time left at the rate so far, in one wording for every command (the import
// counts bytes read instead: import-catalogue.ts).

/** "1 h 2 min", "3 min 4 s", "5 s": a duration for progress lines. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  if (s >= 60) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${s} s`;
}

/** "300/3,000 videos (10%, 4 s left)": `done` of `total` after `elapsedSeconds`, the time left at that rate. */
export function describeProgress(done: number, total: number, unit: string, elapsedSeconds: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const share = total > 0 ? Math.min(1, done / total) : 1;
  const left = done > 0 ? `${formatDuration((elapsedSeconds / done) * Math.max(0, total - done))} left` : 'time left unknown';
  return `${n(done)}/${n(total)} ${unit} (${Math.floor(share * 100)}%, ${left})`;
}
