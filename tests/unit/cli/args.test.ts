// src/cli/args.ts: the command line every operator command reads.
import { describe, expect, it } from 'vitest';
import { type CommandSpec, parseCommandLine, UsageError, usageOf, wholeNumber } from '../../../src/cli/args.ts';

const COMMAND = {
  run: 'npm run thing',
  about: 'Does a thing.',
  options: {
    'static-files': { type: 'boolean', help: 'also write files' },
    'base-url': { type: 'string', value: 'URL', help: 'the origin' },
    origin: { type: 'string', value: 'URL', multiple: true, help: 'an origin' },
  },
  positionals: { usage: '[FILE]', min: 0, max: 1 },
  notes: ['environment: THING_DIR'],
} as const satisfies CommandSpec;

const refusal = (argv: string[]) => {
  try {
    parseCommandLine(COMMAND, argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
};

describe('parseCommandLine', () => {
  it('reads booleans, strings (both spellings), repeated options and positionals', () => {
    const args = parseCommandLine(COMMAND, ['--static-files', '--base-url', 'http://a.test', '--origin=http://o1', '--origin', 'http://o2', 'file.txt']);
    expect(args).toEqual({ values: { 'static-files': true, 'base-url': 'http://a.test', origin: ['http://o1', 'http://o2'] }, positionals: ['file.txt'] });
    expect(parseCommandLine(COMMAND, [])).toEqual({ values: {}, positionals: [] });
  });

  it('answers --help and -h anywhere, before anything else is checked', () => {
    for (const argv of [['--help'], ['-h'], ['--nonsense', '--help'], ['a', 'b', 'c', '-h'], ['--base-url', 'x', '--help']]) {
      expect(parseCommandLine(COMMAND, argv), argv.join(' ')).toBeUndefined();
    }
  });

  it('takes a --help after a lone -- as an argument, not a request for help', () => {
    expect(parseCommandLine(COMMAND, ['--', '--help'])).toEqual({ values: {}, positionals: ['--help'] });
  });

  it('refuses an unknown option, naming it as typed and suggesting the near one', () => {
    expect(refusal(['--static-file'])).toMatch(/^unknown option --static-file \(did you mean --static-files\?\); see npm run thing -- --help$/);
    expect(refusal(['--full'])).toMatch(/^unknown option --full;/);
    expect(refusal(['--zzz=3'])).toMatch(/^unknown option --zzz=3;/);
    expect(refusal(['-x'])).toMatch(/^unknown option -x;/);
  });

  it('refuses a string option without its value, a boolean with one, and a single option given twice', () => {
    expect(refusal(['--base-url'])).toMatch(/^--base-url needs a value;/);
    expect(refusal(['--base-url', '--static-files'])).toMatch(/^--base-url needs a value;/);
    // a value that starts with a dash reads as an option: the message says how to give it
    expect(refusal(['--base-url', '-5'])).toMatch(/^--base-url needs a value; "-5" starts with a dash: write --base-url=-5 to give it;/);
    expect(parseCommandLine(COMMAND, ['--base-url=-5'])?.values['base-url']).toBe('-5');
    expect(refusal(['--static-files=yes'])).toMatch(/^--static-files takes no value;/);
    expect(refusal(['--base-url', 'a', '--base-url', 'b'])).toMatch(/^--base-url is given 2 times; give it once;/);
  });

  it('refuses positionals beyond what the command takes, naming the first extra one', () => {
    expect(refusal(['a', 'b'])).toMatch(/^unexpected argument "b";/);
    const { positionals: _, ...none } = COMMAND;
    expect(() => parseCommandLine(none, ['build'])).toThrow(/unexpected argument "build" \(this command takes only options\)/);
    const one = { ...COMMAND, positionals: { usage: 'FILE', min: 1, max: 1 } };
    expect(() => parseCommandLine(one, [])).toThrow(/^missing FILE;/);
  });
});

describe('usageOf', () => {
  it('lists every option with its value and help, --help included, and the notes', () => {
    const text = usageOf(COMMAND);
    expect(text).toMatch(/^usage: npm run thing -- \[FILE\] \[options\]\n\nDoes a thing\.\n/);
    expect(text).toMatch(/--static-files\s+also write files/);
    expect(text).toMatch(/--base-url URL\s+the origin/);
    expect(text).toMatch(/--origin URL\s+an origin \(may be repeated\)/);
    expect(text).toMatch(/-h, --help\s+print this help and exit/);
    expect(text).toContain('environment: THING_DIR');
  });
});

describe('wholeNumber', () => {
  it('gives the fallback when absent and the number when in range', () => {
    expect(wholeNumber('videos', undefined, { min: 1, max: 10, fallback: 5 })).toBe(5);
    expect(wholeNumber('videos', '10', { min: 1, max: 10, fallback: 5 })).toBe(10);
  });

  it('refuses anything else, naming the option and the value', () => {
    for (const text of ['0', '11', '-1', '1.5', '1e3', '', 'ten', ' 3']) {
      expect(() => wholeNumber('videos', text, { min: 1, max: 10, fallback: 5 }), text).toThrow(new RegExp(`^--videos must be a whole number from 1 to 10, not "${text.replace('.', '\\.')}"$`));
    }
  });
});
