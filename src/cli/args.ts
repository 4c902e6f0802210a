// The command line of every operator command (docs/reliability.md, "Builds and the file system"):
// a command declares its options once; the same declaration parses the arguments, refuses an
// unknown option or a misplaced value with a message naming it, and writes the `--help` text.
// `--help` and `-h` are understood by every command and never run it. A leaf module: it imports
// nothing of the project, so every script can use it.
import { parseArgs } from 'node:util';

/** A mistake on the command line: the command prints the message and exits with status 2. */
export class UsageError extends Error {}

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** may be given more than once (the values arrive as an array) */
  readonly multiple?: boolean;
  /** the placeholder of a string option's value in the help, e.g. `N` or `URL` */
  readonly value?: string;
  readonly help: string;
}

export interface CommandSpec<O extends Readonly<Record<string, OptionSpec>> = Readonly<Record<string, OptionSpec>>> {
  /** how the command is run, without options: `npm run build` */
  readonly run: string;
  /** what the command does, one or more sentences */
  readonly about: string;
  readonly options: O;
  /** positional arguments, e.g. `FILE`; none are accepted unless named here */
  readonly positionals?: { readonly usage: string; readonly min: number; readonly max: number };
  /** further lines for the help: environment variables, examples */
  readonly notes?: readonly string[];
}

type ValueOf<S extends OptionSpec> = S['type'] extends 'string'
  ? (S['multiple'] extends true ? string[] : string)
  : (S['multiple'] extends true ? boolean[] : boolean);

export type Values<O extends Readonly<Record<string, OptionSpec>>> = { -readonly [K in keyof O]?: ValueOf<O[K]> };

export interface ParsedArgs<O extends Readonly<Record<string, OptionSpec>>> {
  readonly values: Values<O>;
  readonly positionals: readonly string[];
}

/** The `--help` text of a command. */
export function usageOf(command: CommandSpec): string {
  const names = Object.entries(command.options);
  const synopsis = `${command.run}${names.length + (command.positionals ? 1 : 0) > 0 ? ' --' : ''}${command.positionals ? ` ${command.positionals.usage}` : ''}${names.length > 0 ? ' [options]' : ''}`;
  const flag = (name: string, spec: OptionSpec) => `--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
  const all: [string, string][] = [...names.map(([name, spec]): [string, string] => [flag(name, spec), `${spec.help}${spec.multiple ? ' (may be repeated)' : ''}`]), ['-h, --help', 'print this help and exit']];
  const width = Math.max(...all.map(([f]) => f.length));
  return [
    `usage: ${synopsis}`,
    '',
    command.about,
    '',
    'options:',
    ...all.map(([f, help]) => `  ${f.padEnd(width)}  ${help}`),
    ...(command.notes && command.notes.length > 0 ? ['', ...command.notes] : []),
    '',
  ].join('\n');
}

/** A one-line reminder of how to run a command, appended to usage errors. */
const hint = (command: CommandSpec) => `see ${command.run}${command.run.startsWith('npm ') ? ' --' : ''} --help`;

/**
 * The arguments of `command`, or `undefined` when help was asked for (`--help` or `-h` anywhere
 * before a lone `--`): the caller prints usageOf(command) and runs nothing. Throws a UsageError
 * naming the option for an unknown option, a string option without its value, a boolean option
 * given a value, a single option given twice, or positional arguments out of bounds.
 */
export function parseCommandLine<O extends Readonly<Record<string, OptionSpec>>>(command: CommandSpec<O>, argv: readonly string[] = process.argv.slice(2)): ParsedArgs<O> | undefined {
  const terminator = argv.indexOf('--');
  const before = terminator === -1 ? argv : argv.slice(0, terminator);
  if (before.includes('--help') || before.includes('-h')) return undefined;
  const options: Record<string, { type: 'string' | 'boolean'; multiple: true }> = {};
  for (const [name, spec] of Object.entries(command.options)) options[name] = { type: spec.type, multiple: true };
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(`${describeParseError(error as Error & { code?: string }, argv, Object.keys(command.options))}; ${hint(command)}`);
  }
  const values: Record<string, unknown> = {};
  for (const [name, given] of Object.entries(parsed.values)) {
    const spec = command.options[name]!;
    const list = given as (string | boolean)[];
    if (!spec.multiple && list.length > 1) throw new UsageError(`--${name} is given ${list.length} times; give it once; ${hint(command)}`);
    values[name] = spec.multiple ? list : list[0];
  }
  const positionals = parsed.positionals;
  const allowed = command.positionals ?? { usage: '', min: 0, max: 0 };
  if (positionals.length > allowed.max) {
    const extra = positionals[allowed.max]!;
    throw new UsageError(`unexpected argument "${extra}"${allowed.max === 0 ? ' (this command takes only options)' : ''}; ${hint(command)}`);
  }
  if (positionals.length < allowed.min) throw new UsageError(`missing ${allowed.usage}; ${hint(command)}`);
  return { values: values as Values<O>, positionals };
}

/** Node's parseArgs messages, made short and naming the culprit as the user typed it. */
function describeParseError(error: Error & { code?: string }, argv: readonly string[], known: readonly string[]): string {
  const named = /'(-[^' ]*)/.exec(error.message)?.[1] ?? '';
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const typed = argv.find((a) => a === named || a.startsWith(`${named}=`)) ?? named;
      const typedName = named.replace(/^-+/, '');
      const near = typedName.length < 4 ? undefined : known.find((name) => distance(name, typedName) <= 2);
      return `unknown option ${typed}${near === undefined ? '' : ` (did you mean --${near}?)`}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      if (/does not take an argument/.test(error.message)) return `${named} takes no value`;
      // `--videos -5`: the value starts with a dash, so it reads as an option; when it is not one of
      // the command's, say how to give it rather than only that the value is missing
      const next = argv[argv.indexOf(named) + 1];
      const isOption = next !== undefined && next.startsWith('--') && known.includes(next.slice(2).split('=')[0]!);
      return next !== undefined && next.startsWith('-') && !isOption ? `${named} needs a value; "${next}" starts with a dash: write ${named}=${next} to give it` : `${named} needs a value`;
    }
    default:
      return error.message.split(/\.\s/)[0]!;
  }
}

/** Levenshtein distance, for suggesting the option a typo was meant to be (names are short). */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * A whole-number option: `fallback` when absent, else the value if it is digits from `min` to
 * `max`; anything else is a UsageError naming the option and the value given.
 */
export function wholeNumber(name: string, text: string | undefined, range: { readonly min: number; readonly max: number; readonly fallback: number }): number {
  if (text === undefined) return range.fallback;
  const n = /^\d{1,16}$/.test(text) ? Number(text) : NaN;
  if (!(n >= range.min && n <= range.max)) throw new UsageError(`--${name} must be a whole number from ${range.min} to ${range.max}, not "${text}"`);
  return n;
}
