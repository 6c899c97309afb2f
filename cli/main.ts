/**
 * The kubespec command line: commander parses (each command's own --help, unknown options and
 * bad choices refused the same way), cli/commands.ts says what each command runs, and errors
 * become exit codes: 0 nothing failed, 1 failures, 2 usage or configuration error.
 */
import { Command, CommanderError, Option } from 'commander';
import { COMMANDS, findCommand, type CommandSpec } from './commands.ts';
import { EXIT_OK, EXIT_USAGE, UsageError } from './usage.ts';

const EXIT_CODES = 'Exit codes: 0 nothing failed, 1 failures, 2 usage or configuration error.';

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (!name || name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
      console.log(programUsage());
      return name ? EXIT_OK : EXIT_USAGE;
    }
    // `kubespec help NAME` is `kubespec NAME --help`.
    const [commandName, args] = name === 'help' ? [rest[0]!, ['--help']] : [name, rest];
    return await runCommand(findCommand(commandName), args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`kubespec: ${error.message}${error.hint ? `\n  ${error.hint}` : ''}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

/** Parses ARGS for SPEC with a fresh commander program (commander keeps parsed values on it) and runs it. */
async function runCommand(spec: CommandSpec, args: string[]): Promise<number> {
  const command = buildCommand(spec);
  let outcome: Promise<number> | undefined;
  command.action((...actionArgs: unknown[]) => {
    const self = actionArgs.at(-1) as Command;
    outcome = spec.run(valuesByLongName(self), self.args);
  });
  try {
    await command.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    // --help (and -h) print through writeOut and end here with exit code 0.
    if (error.exitCode === 0) return EXIT_OK;
    throw new UsageError(error.message.replace(/^error: /, ''), `see kubespec ${spec.name} --help`);
  }
  return outcome ?? EXIT_OK;
}

function buildCommand(spec: CommandSpec): Command {
  const command = new Command(spec.name)
    .description(spec.summary)
    .helpOption('-h, --help', 'this help')
    .exitOverride()
    .configureOutput({ writeOut: (text) => console.log(text.trimEnd()), writeErr: () => {}, outputError: () => {} })
    .addHelpText('after', spec.details ? `\n${spec.details}\n\n${EXIT_CODES}` : `\n${EXIT_CODES}`);
  command.name(`kubespec ${spec.name}`);
  if (spec.args) command.arguments(spec.args);
  for (const o of spec.options) {
    const option = new Option(o.flags, o.help);
    if (o.default !== undefined) option.default(o.default);
    if (o.choices) option.choices(o.choices);
    command.addOption(option);
  }
  return command;
}

/** commander's camelCase values back to the long names the command modules use ('data-dir', 'no-coverage'). */
function valuesByLongName(command: Command): Record<string, unknown> {
  const parsed = command.opts();
  const values: Record<string, unknown> = {};
  for (const option of command.options) {
    const value = parsed[option.attributeName()];
    if (value === undefined || option.long === '--help') continue;
    const long = option.long!.replace(/^--/, '');
    if (option.negate) {
      if (value === false) values[long] = true;
    } else values[long] = value;
  }
  return values;
}

/** `kubespec --help`: one usage line and summary per command. */
function programUsage(): string {
  const lines = COMMANDS.map((spec) => {
    const usage = buildCommand(spec).usage();
    return `  kubespec ${spec.name} ${usage}\n      ${spec.summary}`;
  });
  return `kubespec — a literate conformance suite for the Kubernetes architecture

Usage:
${lines.join('\n')}
  kubespec COMMAND --help
      One command's options.

${EXIT_CODES}`;
}
