import type { Mode } from '../../shared/auth/principal';
import { parseArgs } from 'node:util';

/** One `ops` command: its words (`key create`), its options, and what it does. */
export interface OpsCommand {
  words: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; required?: boolean }>;
  /** Positional arguments after the words (for `job run NAME`). */
  positionals?: string[];
  run(values: Record<string, string | boolean | undefined>, positionals: string[], input: OpsInput): Promise<unknown>;
}

/** What a command reads besides its arguments. */
export interface OpsInput {
  /** A secret (a password), the first line of standard input: never an argument, which shell history and the process list keep. */
  secret(): Promise<string>;
}

/** Standard input's first line, without its line end (`printf '%s' "$PASSWORD" | npm run ops -- … --password-stdin`). */
export const standardInput: OpsInput = {
  async secret() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0];
  },
};

export class UsageError extends Error {}

/** The `--mode` option's value. */
export function modeOption(value: unknown): Mode {
  if (value !== 'test' && value !== 'live') throw new UsageError('--mode must be one of test, live');
  return value;
}

/** A command result printed as-is instead of as one JSON object (`settlement export` CSV). */
export class TextOutput {
  constructor(readonly text: string) {}
}

/** `--help`: the text goes to stdout and the exit code is 0. */
export class HelpRequested extends Error {}

export function helpText(commands: OpsCommand[]): string {
  return [
    'Usage: npm run ops -- <command> [options]',
    '',
    'Prints one JSON object on stdout (settlement export without --out: the CSV itself);',
    'exits non-zero with a message on stderr on failure.',
    'Talks to DYNAMODB_ENDPOINT / TABLE_NAME (without DYNAMODB_ENDPOINT and with AWS credentials: the deployed table).',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.words} ${command.usage}`),
  ].join('\n');
}

/**
 * Finds the command named by the leading words and parses its options strictly. `--help` is
 * asked for (stdout, exit 0); no command at all is a usage error (the help on stderr, exit 2).
 */
export async function runOps(commands: OpsCommand[], argv: string[], input: OpsInput = standardInput): Promise<unknown> {
  if (argv.length === 0) throw new UsageError(`No command given.\n\n${helpText(commands)}`);
  if (argv.includes('--help') || argv.includes('-h')) {
    const command = commands.find((candidate) => argv.join(' ').startsWith(candidate.words));
    throw new HelpRequested(command ? `Usage: npm run ops -- ${command.words} ${command.usage}` : helpText(commands));
  }
  const command = [...commands]
    .sort((a, b) => b.words.length - a.words.length)
    .find((candidate) => argv.join(' ') === candidate.words || argv.join(' ').startsWith(`${candidate.words} `));
  if (!command) throw new UsageError(`Unknown command: ${argv.slice(0, 2).join(' ')}\n\n${helpText(commands)}`);
  const rest = argv.slice(command.words.split(' ').length);
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      options: Object.fromEntries(Object.entries(command.options).map(([name, option]) => [name, { type: option.type }])),
      allowPositionals: !!command.positionals,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nUsage: npm run ops -- ${command.words} ${command.usage}`);
  }
  for (const [name, option] of Object.entries(command.options)) {
    if (option.required && parsed.values[name] === undefined) {
      throw new UsageError(`Missing --${name}\nUsage: npm run ops -- ${command.words} ${command.usage}`);
    }
  }
  if (command.positionals && parsed.positionals.length < command.positionals.length) {
    throw new UsageError(`Missing ${command.positionals.join(' ')}\nUsage: npm run ops -- ${command.words} ${command.usage}`);
  }
  return command.run(parsed.values as Record<string, string | boolean | undefined>, parsed.positionals, input);
}
