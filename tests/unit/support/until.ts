// Waiting for what other processes do: checks `check` every `everyMs` until it holds or `ms` have
// passed; whether it held (the last check is made at the deadline).
export async function until(check: () => Promise<boolean>, ms: number, everyMs = 100): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return check();
}
