// Shared by the operator scripts: run a main function, print failures as one clear line, exit non-zero.
// runCommand also reads the command line with src/cli/args.ts: `--help` prints the usage and runs
// nothing; an unknown option or a misplaced value stops with a message naming it (status 2).
import { type CommandSpec, type OptionSpec, type ParsedArgs, parseCommandLine, UsageError, usageOf } from '../src/cli/args.ts';
import { ConfigError } from '../src/config.ts';

export { UsageError };

/**
 * SQLite's "database is locked" names neither the file nor what to do: every operator command that
 * meets it met the catalogue held by another writer for longer than its 5 s busy timeout
 * (open-catalogue.ts), so it says that.
 */
function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return `the catalogue is locked by another process that has been writing to it for more than 5 s (an import, say); nothing was done: try again once it has finished (SQLite: ${message})`;
  }
  return message;
}

export async function runCli(name: string, main: () => Promise<void> | void): Promise<void> {
  try {
    await main();
  } catch (error) {
    const message = describeFailure(error);
    console.error(`${name}: ${message}`);
    process.exitCode = error instanceof UsageError || error instanceof ConfigError ? 2 : 1;
  }
}

/** Runs `main` with the parsed command line, or prints the help when it is asked for. */
export async function runCommand<O extends Readonly<Record<string, OptionSpec>>>(name: string, command: CommandSpec<O>, main: (args: ParsedArgs<O>) => Promise<void> | void): Promise<void> {
  await runCli(name, async () => {
    const args = parseCommandLine(command);
    if (args === undefined) process.stdout.write(usageOf(command));
    else await main(args);
  });
}

/**
 * Reads the command line before anything else runs (for scripts that must re-run themselves, e.g.
 * pinned with taskset): prints the usage and exits 0 on --help, exits 2 naming a wrong option.
 */
export function readCommandLine<O extends Readonly<Record<string, OptionSpec>>>(name: string, command: CommandSpec<O>): ParsedArgs<O> {
  let args: ParsedArgs<O> | undefined;
  try {
    args = parseCommandLine(command);
  } catch (error) {
    console.error(`${name}: ${(error as Error).message}`);
    process.exit(2);
  }
  if (args === undefined) {
    process.stdout.write(usageOf(command));
    process.exit(0);
  }
  return args;
}

export const elapsed = (started: number): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;
export const megabytes = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
