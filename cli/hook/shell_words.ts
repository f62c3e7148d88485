/**
 * A shell command line read as the shell reads it, for the pre-tool-use hook: words with their
 * quotes removed, redirections, pipelines, lists (`;`, `&&`, `||`, `&`, new lines), subshells and
 * `{ …; }` groups, here-documents, and the commands run inside `$(…)`, backquotes and `<(…)`.
 * Nothing is expanded: a word that the shell would expand (`$X`, `$(…)`, `~`) is marked, so the
 * hook can refuse what it cannot tell.
 *
 * @module
 */

/** One word of a command, its quotes removed. */
export interface ShellWord {
  /** The text, quotes and escapes removed; expansions left as written (`$HOME/x`). */
  readonly text: string;
  /**
   * Whether the shell passes `text` as is: no parameter, command or arithmetic expansion and no
   * tilde (a glob such as `*.ts` still counts as literal: it names paths under its directory).
   */
  readonly literal: boolean;
  /** The command lists run to expand the word (`$(…)`, `` `…` ``, `<(…)`, `>(…)`). */
  readonly substitutions: readonly ShellList[];
  /**
   * Whether the word holds unquoted `*`, `?`, `[` or `{`: the shell may expand it into other
   * words (`k?t`, `{context,x}`).
   */
  readonly pattern?: boolean;
}

/** A redirection of one command: `> file`, `2>> log`, `<<EOF`, `>&2`. */
export interface Redirection {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `<`, `<<`, `<<-`, `<<<`, `>&` or `<&`. */
  readonly operator: string;
  /** The file, the descriptor duplicated (`>&2`), the here-string or the here-document's delimiter. */
  readonly target: ShellWord;
  /** A here-document's body. */
  readonly hereDoc?: string;
  /** The commands run to expand an unquoted here-document's body. */
  readonly hereDocSubstitutions?: readonly ShellList[];
}

/** A simple command: `NAME=value … word … redirection …`. */
export interface SimpleCommand {
  readonly type: "command";
  /** The assignments before the command name. */
  readonly assignments: readonly ShellWord[];
  /** The command name and its arguments. */
  readonly words: readonly ShellWord[];
  readonly redirections: readonly Redirection[];
}

/** A subshell `( … )` or a group `{ …; }`, with its redirections. */
export interface ShellGroup {
  readonly type: "group";
  /** A subshell: a `cd` inside it does not outlast it. */
  readonly subshell: boolean;
  readonly body: ShellList;
  readonly redirections: readonly Redirection[];
}

/** Commands joined by `|`: each but a lone one runs in a subshell, reading the previous one's output. */
export interface Pipeline {
  readonly elements: readonly (SimpleCommand | ShellGroup)[];
}

/** Pipelines run one after the other (`;`, `&&`, `||`, `&`, new lines), in order. */
export interface ShellList {
  readonly pipelines: readonly Pipeline[];
}

/** A command line the parser cannot read (an unclosed quote, a `case`, a function definition). */
export class ShellSyntaxError extends Error {
  override name = "ShellSyntaxError";
}

/**
 * Reads `source` as a POSIX shell (bash) command line.
 *
 * @example
 * ```ts
 * import { parseShell } from "./shell_words.ts";
 * const list = parseShell("cd src && echo 'a b' > out.txt");
 * // two pipelines: `cd src`, and `echo "a b"` with a redirection to out.txt
 * ```
 * @throws {ShellSyntaxError} when the line is not one the parser reads.
 */
export function parseShell(source: string): ShellList {
  return new Parser(source).script();
}

type Pending = { delimiter: string; strip: boolean; quoted: boolean; redirection: Mutable };
type Mutable = { -readonly [K in keyof Redirection]: Redirection[K] };

const metacharacters = " \t\n;&|()<>";

class Parser {
  #pos = 0;
  #pending: Pending[] = [];

  constructor(readonly source: string) {}

  script(): ShellList {
    return this.#list(undefined);
  }

  #peek(offset = 0): string {
    return this.source[this.#pos + offset] ?? "";
  }

  #list(end: ")" | "}" | undefined): ShellList {
    const list = new ListBeingRead();
    while (true) {
      this.#blanks();
      const c = this.#peek();
      if (c === "") {
        if (end !== undefined) {
          throw new ShellSyntaxError(`'${end === ")" ? "(" : "{"}' is not closed`);
        }
        return list.done();
      }
      if (this.#separator(c, list)) continue;
      if (c === "(") {
        this.#subshell(list);
      } else if (c === ")") {
        if (end !== ")") throw new ShellSyntaxError("')' closes nothing");
        this.#pos++;
        return list.done();
      } else if (((c === "<" || c === ">") && this.#peek(1) !== "(") || c === "&") {
        list.command.redirections.push(this.#redirection());
      } else if (this.#wordOf(list, end)) {
        return list.done();
      }
    }
  }

  /**
   * A comment, or an operator that ends a command (`|`, `|&`) or a pipeline (a new line, `;`,
   * `&`, `&&`, `||`), at the position; false for anything else.
   */
  #separator(c: string, list: ListBeingRead): boolean {
    if (c === "#") {
      while (this.#peek() !== "\n" && this.#peek() !== "") this.#pos++;
    } else if (c === "\n") {
      this.#pos++;
      list.finishPipeline();
      this.#hereDocs();
    } else if (c === ";") {
      if (this.#peek(1) === ";") throw new ShellSyntaxError("'case' is not read by the hook");
      this.#pos++;
      list.finishPipeline();
    } else if (c === "&" && this.#peek(1) !== ">") {
      this.#pos += this.#peek(1) === "&" ? 2 : 1;
      list.finishPipeline();
    } else if (c === "|" && this.#peek(1) === "|") {
      this.#pos += 2;
      list.finishPipeline();
    } else if (c === "|") {
      this.#pos += this.#peek(1) === "&" ? 2 : 1;
      list.finishCommand();
    } else {
      return false;
    }
    return true;
  }

  /** A subshell `( … )` as the command (after nothing, `time`, `-p` or `!`); any other `(` refused. */
  #subshell(list: ListBeingRead): void {
    const command = list.command;
    if (
      command.assignments.length > 0 ||
      !command.words.every((w) => ["time", "-p", "!"].includes(w.text))
    ) {
      throw new ShellSyntaxError("a function definition or a stray '(' is not read by the hook");
    }
    command.words.length = 0; // `time ( … )`, `! ( … )`: the subshell is the command
    if (this.#peek(1) === "(") throw new ShellSyntaxError("'((…))' is not read by the hook");
    this.#pos++;
    const body = this.#list(")");
    list.elements.push({ type: "group", subshell: true, body, redirections: this.#trailing() });
  }

  /**
   * A word at the position: a redirection's descriptor (`2>`), a group's `{`, an assignment, or a
   * word of the command; true when it is the `}` that closes the group being read.
   */
  #wordOf(list: ListBeingRead, end: ")" | "}" | undefined): boolean {
    const command = list.command;
    const start = this.#pos;
    const word = this.#word();
    const raw = this.source.slice(start, this.#pos);
    const next = this.#peek();
    if (/^\d+$/.test(raw) && (next === "<" || next === ">") && this.#peek(1) !== "(") {
      command.redirections.push(this.#redirection());
    } else if (command.words.length === 0 && raw === "{") {
      list.finishCommand();
      const body = this.#list("}");
      list.elements.push({ type: "group", subshell: false, body, redirections: this.#trailing() });
    } else if (command.words.length === 0 && raw === "}" && end === "}") {
      return true;
    } else if (command.words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(raw)) {
      command.assignments.push(word);
    } else {
      if (command.words.length === 0 && ["case", "function", "select"].includes(raw)) {
        throw new ShellSyntaxError(`'${raw}' is not read by the hook`);
      }
      command.words.push(word);
    }
    return false;
  }

  /** The redirections after a group's closing `)` or `}`. */
  #trailing(): Redirection[] {
    const out: Redirection[] = [];
    while (true) {
      this.#blanks();
      const c = this.#peek();
      if ((c === "<" || c === ">") && this.#peek(1) !== "(") out.push(this.#redirection());
      else if (c === "&" && this.#peek(1) === ">") out.push(this.#redirection());
      else if (/\d/.test(c) && /^\d+[<>]/.test(this.source.slice(this.#pos))) {
        const digits = /^\d+/.exec(this.source.slice(this.#pos))![0];
        this.#pos += digits.length;
        out.push(this.#redirection());
      } else return out;
    }
  }

  #redirection(): Redirection {
    const rest = this.source.slice(this.#pos);
    const operator = ["&>>", "&>", "<<<", "<<-", ">>", ">|", ">&", "<<", "<>", "<&", ">", "<"]
      .find((op) => rest.startsWith(op))!;
    this.#pos += operator.length;
    this.#blanks();
    if (
      this.#peek() === "" || metacharacters.replace("<", "").replace(">", "").includes(this.#peek())
    ) {
      throw new ShellSyntaxError(`'${operator}' has no target`);
    }
    const start = this.#pos;
    const target = this.#word();
    const redirection: Mutable = { operator, target };
    if (operator === "<<" || operator === "<<-") {
      const raw = this.source.slice(start, this.#pos);
      this.#pending.push({
        delimiter: target.text,
        strip: operator === "<<-",
        quoted: /['"\\]/.test(raw),
        redirection,
      });
    }
    return redirection;
  }

  /** Reads the bodies of the here-documents opened on the line just ended. */
  #hereDocs(): void {
    for (const pending of this.#pending.splice(0)) {
      const lines: string[] = [];
      while (this.#pos < this.source.length) {
        const newline = this.source.indexOf("\n", this.#pos);
        const stop = newline === -1 ? this.source.length : newline;
        const line = this.source.slice(this.#pos, stop);
        this.#pos = newline === -1 ? stop : stop + 1;
        const compared = pending.strip ? line.replace(/^\t+/, "") : line;
        if (compared === pending.delimiter) break;
        lines.push(compared);
      }
      const body = lines.join("\n");
      pending.redirection.hereDoc = body;
      if (!pending.quoted) {
        pending.redirection.hereDocSubstitutions = new Parser(body).#expandable().substitutions;
      }
    }
  }

  /** Spaces, tabs and escaped new lines. */
  #blanks(): void {
    while (true) {
      const c = this.#peek();
      if (c === " " || c === "\t") this.#pos++;
      else if (c === "\\" && this.#peek(1) === "\n") this.#pos += 2;
      else return;
    }
  }

  /** One word, up to the next unquoted metacharacter. */
  #word(): ShellWord {
    const word = { text: "", literal: true, substitutions: [] as ShellList[], pattern: false };
    const c = this.#peek();
    if ((c === "<" || c === ">") && this.#peek(1) === "(") {
      this.#pos += 2;
      word.substitutions.push(this.#list(")"));
      return {
        text: `/dev/fd/${c === "<" ? "in" : "out"}`,
        literal: false,
        substitutions: word.substitutions,
      };
    }
    if (c === "~") word.literal = false;
    while (this.#pos < this.source.length) {
      const ch = this.#peek();
      if (metacharacters.includes(ch)) break;
      if (ch === "\\") {
        if (this.#peek(1) !== "\n") word.text += this.#peek(1);
        this.#pos += 2;
      } else if (ch === "'") {
        const close = this.source.indexOf("'", this.#pos + 1);
        if (close === -1) throw new ShellSyntaxError("a single quote is not closed");
        word.text += this.source.slice(this.#pos + 1, close);
        this.#pos = close + 1;
      } else if (ch === '"') {
        this.#pos++;
        this.#double(word);
      } else if (ch === "$" || ch === "`") {
        this.#dollarOrBackquote(word, false);
      } else {
        if ("*?[{".includes(ch)) word.pattern = true;
        word.text += ch;
        this.#pos++;
      }
    }
    return word;
  }

  /** The rest of a double-quoted string, after its opening quote. */
  #double(word: { text: string; literal: boolean; substitutions: ShellList[] }): void {
    while (true) {
      const ch = this.#peek();
      if (ch === "") throw new ShellSyntaxError("a double quote is not closed");
      if (ch === '"') {
        this.#pos++;
        return;
      }
      if (ch === "\\" && '$`"\\\n'.includes(this.#peek(1))) {
        if (this.#peek(1) !== "\n") word.text += this.#peek(1);
        this.#pos += 2;
      } else if (ch === "$" || ch === "`") {
        this.#dollarOrBackquote(word, true);
      } else {
        word.text += ch;
        this.#pos++;
      }
    }
  }

  /** The whole source read as the body of an unquoted here-document: its substitutions. */
  #expandable(): ShellWord {
    const word = { text: "", literal: true, substitutions: [] as ShellList[] };
    while (this.#pos < this.source.length) {
      const ch = this.#peek();
      if (ch === "\\") this.#pos += 2;
      else if (ch === "$" || ch === "`") this.#dollarOrBackquote(word, true);
      else this.#pos++;
    }
    return word;
  }

  /** `$name`, `${…}`, `$(…)`, `$((…))`, `$'…'` or a backquoted command, at the position. */
  #dollarOrBackquote(
    word: { text: string; literal: boolean; substitutions: ShellList[] },
    inDouble: boolean,
  ): void {
    if (this.#peek() === "`") this.#backquote(word);
    else this.#dollar(word, inDouble);
  }

  /** A backquoted command, at the position. */
  #backquote(word: { text: string; literal: boolean; substitutions: ShellList[] }): void {
    const start = this.#pos;
    let inner = "";
    this.#pos++;
    while (this.#peek() !== "`") {
      if (this.#peek() === "") throw new ShellSyntaxError("a backquote is not closed");
      if (this.#peek() === "\\" && "`$\\".includes(this.#peek(1))) {
        inner += this.#peek(1);
        this.#pos += 2;
      } else {
        inner += this.#peek();
        this.#pos++;
      }
    }
    this.#pos++;
    word.substitutions.push(parseShell(inner));
    word.literal = false;
    word.text += this.source.slice(start, this.#pos);
  }

  /** `$name`, `${…}`, `$(…)`, `$((…))` or `$'…'` at the position; a lone `$` is literal. */
  #dollar(
    word: { text: string; literal: boolean; substitutions: ShellList[] },
    inDouble: boolean,
  ): void {
    const start = this.#pos;
    const next = this.#peek(1);
    if (next === "(" && this.#peek(2) === "(") {
      this.#pos = this.#closing(this.#pos + 3, "((", "))") + 2;
      word.literal = false;
    } else if (next === "(") {
      this.#pos += 2;
      word.substitutions.push(this.#list(")"));
      word.literal = false;
    } else if (next === "{") {
      const close = this.#closing(this.#pos + 2, "{", "}");
      const inner = this.source.slice(this.#pos + 2, close);
      if (/\$\(|`/.test(inner)) {
        throw new ShellSyntaxError("a command inside '${…}' is not read by the hook");
      }
      this.#pos = close + 1;
      word.literal = false;
    } else if (next === "'" && !inDouble) {
      const close = this.source.indexOf("'", this.#pos + 2);
      if (close === -1) throw new ShellSyntaxError("a quote $'…' is not closed");
      this.#pos = close + 1;
      word.literal = false;
    } else if (/[A-Za-z_]/.test(next)) {
      this.#pos++;
      while (/[A-Za-z0-9_]/.test(this.#peek())) this.#pos++;
      word.literal = false;
    } else if (/[0-9@*#?$!-]/.test(next) && next !== "") {
      this.#pos += 2;
      word.literal = false;
    } else {
      this.#pos++;
      word.text += "$";
      return;
    }
    word.text += this.source.slice(start, this.#pos);
  }

  /** The index of the `close` that ends a span opened before `from`, nesting `open`. */
  #closing(from: number, open: string, close: string): number {
    let depth = 1;
    for (let i = from; i < this.source.length; i++) {
      if (this.source.startsWith(open, i)) {
        depth++;
        i += open.length - 1;
      } else if (this.source.startsWith(close, i)) {
        depth--;
        if (depth === 0) return i;
        i += close.length - 1;
      }
    }
    throw new ShellSyntaxError(`'${open}' is not closed`);
  }
}

/** The list being read: its pipelines, the elements of the pipeline and the command under way. */
class ListBeingRead {
  readonly pipelines: Pipeline[] = [];
  elements: (SimpleCommand | ShellGroup)[] = [];
  command = newCommand();

  /** Ends the command under way; one with no word, assignment or redirection is dropped. */
  finishCommand(): void {
    const command = this.command;
    if (command.words.length + command.assignments.length + command.redirections.length > 0) {
      this.elements.push({ type: "command", ...command });
    }
    this.command = newCommand();
  }

  /** Ends the pipeline under way; an empty one is dropped. */
  finishPipeline(): void {
    this.finishCommand();
    if (this.elements.length > 0) this.pipelines.push({ elements: this.elements });
    this.elements = [];
  }

  /** The list read, its last pipeline ended. */
  done(): ShellList {
    this.finishPipeline();
    return { pipelines: this.pipelines };
  }
}

function newCommand(): {
  assignments: ShellWord[];
  words: ShellWord[];
  redirections: Redirection[];
} {
  return { assignments: [], words: [], redirections: [] };
}
