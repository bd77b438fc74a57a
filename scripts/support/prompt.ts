import { createInterface, type Interface } from "node:readline";

export type Prompter = {
  ask(question: string, options?: { secret?: boolean }): Promise<string>;
  confirm(question: string): Promise<boolean>;
  close(): void;
};

/**
 * Questions on the terminal; a secret's answer is not echoed. Null when stdin is not a terminal (CI, a pipe),
 * where nothing could answer.
 */
export function createPrompter(): Prompter | null {
  if (!process.stdin.isTTY) return null;
  let muted = false;
  const rl: Interface = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // readline echoes through _writeToOutput; while a secret is typed, only the prompt itself is written.
  const internals = rl as unknown as { _writeToOutput: (text: string) => void; output: NodeJS.WriteStream };
  const write = internals._writeToOutput.bind(rl);
  internals._writeToOutput = (text: string) => {
    if (!muted || text.includes("\n")) write(muted ? "\n" : text);
  };
  const question = (text: string) => new Promise<string>((resolve) => rl.question(text, resolve));
  return {
    async ask(text, options = {}) {
      if (!options.secret) return question(text);
      process.stdout.write(text);
      muted = true;
      try {
        return await question("");
      } finally {
        muted = false;
      }
    },
    async confirm(text) {
      return /^y(es)?$/i.test((await question(`${text} [y/N] `)).trim());
    },
    close: () => rl.close(),
  };
}
