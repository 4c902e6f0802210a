// Times as the player shows them: 0:07, 12:05, 1:02:03.

export function formatClock(seconds: number): string {
  const s = Number.isFinite(seconds) ? Math.max(0, Math.floor(seconds)) : 0;
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  return (h ? `${h}:${String(m).padStart(2, '0')}` : String(m)) + `:${String(sec).padStart(2, '0')}`;
}
