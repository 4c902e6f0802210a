// Shared by the operator scripts: run a main function, print failures as one clear line, exit non-zero.
import { ConfigError } from '../src/config.ts';

export class UsageError extends Error {}

export async function runCli(name: string, main: () => Promise<void> | void): Promise<void> {
  try {
    await main();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`${name}: ${message}`);
    process.exitCode = error instanceof UsageError || error instanceof ConfigError ? 2 : 1;
  }
}

export const elapsed = (started: number): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;
export const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
