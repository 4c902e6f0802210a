/** The duration classes, shortest first: the values of `/v1/videos?duration=` (src/api/params.ts). */
export const DURATION_CLASSES = ['short', 'medium', 'long'] as const;
export type DurationClass = (typeof DURATION_CLASSES)[number];

/** YouTube's boundaries: short under 4 minutes, medium 4–20 minutes inclusive, long over 20. */
export function durationClass(seconds: number): DurationClass {
  if (seconds < 240) return 'short';
  return seconds <= 1200 ? 'medium' : 'long';
}

/** `M:SS` under an hour (`0:45`, `59:59`), `H:MM:SS` from an hour (`1:02:03`). */
export function durationText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
