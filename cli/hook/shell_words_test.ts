import assert from "node:assert/strict";
import { parseShell, type ShellList, ShellSyntaxError, type SimpleCommand } from "./shell_words.ts";

/** The simple commands of a list, in order, as their words' texts (groups flattened). */
function commands(list: ShellList): string[][] {
  return list.pipelines.flatMap((p) =>
    p.elements.flatMap((e) => e.type === "group" ? commands(e.body) : [e.words.map((w) => w.text)])
  );
}

function only(source: string): SimpleCommand {
  const element = parseShell(source).pipelines[0]!.elements[0]!;
  assert.equal(element.type, "command");
  return element as SimpleCommand;
}

Deno.test("parseShell() removes quotes and escapes, and marks the words the shell expands", () => {
  const words = only(`echo 'a b' "c \\"d\\" $X" e\\ f ~/g "$(date)" 'h$i' j$`).words;
  assert.deepEqual(words.map((w) => w.text), [
    "echo",
    "a b",
    'c "d" $X',
    "e f",
    "~/g",
    "$(date)",
    "h$i",
    "j$",
  ]);
  assert.deepEqual(words.map((w) => w.literal), [
    true,
    true,
    false,
    true,
    false,
    false,
    true,
    true,
  ]);
  // Unquoted glob and brace characters: the shell may expand the word.
  const patterns = only(`ls *.ts "*.md" a\\* {a,b} x[1] '?'`).words;
  assert.deepEqual(patterns.map((w) => w.pattern ?? false), [
    false,
    true,
    false,
    false,
    true,
    true,
    false,
  ]);
});

Deno.test("parseShell() splits lists, pipelines, subshells and groups", () => {
  const list = parseShell("a 1 && b || c; d | e & f\ng\\\n h");
  assert.deepEqual(list.pipelines.map((p) => p.elements.length), [1, 1, 1, 2, 1, 1]);
  assert.deepEqual(commands(list), [["a", "1"], ["b"], ["c"], ["d"], ["e"], ["f"], ["g", "h"]]);
  const grouped = parseShell("(cd x && y) > out; { z; w; } 2>&1");
  const [subshell, group] = grouped.pipelines.map((p) => p.elements[0]!);
  assert.equal(subshell?.type === "group" && subshell.subshell, true);
  assert.deepEqual(subshell?.redirections.map((r) => [r.operator, r.target.text]), [[">", "out"]]);
  assert.equal(group?.type === "group" && !group.subshell, true);
  assert.deepEqual(commands(grouped), [["cd", "x"], ["y"], ["z"], ["w"]]);
});

Deno.test("parseShell() reads redirections, with or without a descriptor and spaces", () => {
  const redirections = only("cmd >a 2>/dev/null >>b 2>&1 &> c &>>d <in x>y <<<here").redirections;
  assert.deepEqual(redirections.map((r) => [r.operator, r.target.text]), [
    [">", "a"],
    [">", "/dev/null"],
    [">>", "b"],
    [">&", "1"],
    ["&>", "c"],
    ["&>>", "d"],
    ["<", "in"],
    [">", "y"],
    ["<<<", "here"],
  ]);
  assert.deepEqual(only("cmd >a 2>/dev/null x>y").words.map((w) => w.text), ["cmd", "x"]);
});

Deno.test("parseShell() reads a here-document as data, not as commands", () => {
  const list = parseShell("cat <<'EOF' > notes.md\nkit generate context x\nEOF\necho done");
  assert.deepEqual(commands(list), [["cat"], ["echo", "done"]]);
  const [cat] = list.pipelines[0]!.elements as SimpleCommand[];
  assert.equal(cat!.redirections[0]!.hereDoc, "kit generate context x");
  assert.deepEqual(cat!.redirections[1]!.target.text, "notes.md");
  // An unquoted delimiter: the body's substitutions run.
  const open = parseShell("cat <<-EOF\n\t$(kit generate context x)\n\tEOF").pipelines[0]!
    .elements[0] as SimpleCommand;
  assert.deepEqual(commands(open.redirections[0]!.hereDocSubstitutions![0]!), [
    ["kit", "generate", "context", "x"],
  ]);
});

Deno.test("parseShell() reads the commands inside substitutions", () => {
  const word = only('echo "$(cd .. && kit generate context x)" `touch y` <(ls)').words;
  assert.deepEqual(commands(word[1]!.substitutions[0]!), [["cd", ".."], [
    "kit",
    "generate",
    "context",
    "x",
  ]]);
  assert.deepEqual(commands(word[2]!.substitutions[0]!), [["touch", "y"]]);
  assert.deepEqual(commands(word[3]!.substitutions[0]!), [["ls"]]);
  assert.deepEqual(only("X=$(rm a) y").assignments[0]!.substitutions.length, 1);
});

Deno.test("parseShell() skips comments", () => {
  assert.deepEqual(commands(parseShell("ls # rm -rf src\necho a#b")), [["ls"], ["echo", "a#b"]]);
});

Deno.test("parseShell() refuses what it does not read", () => {
  for (
    const source of [
      "echo 'open",
      'echo "open',
      "(ls",
      "ls )",
      "f() { rm x; }",
      "case $x in a) rm y;; esac",
      "echo `open",
      "echo >",
    ]
  ) {
    assert.throws(() => parseShell(source), ShellSyntaxError, source);
  }
});
