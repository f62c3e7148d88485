/** A refusal of the CLI: printed as one line on stderr, exit code 1, no file changed. */
export class CliError extends Error {
  /** Builds the refusal. */
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}
