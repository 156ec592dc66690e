import { createInterface } from 'node:readline';

/** Asks for the password on the terminal without echoing it. */
export async function promptPassword(question: string): Promise<string> {
  if (!process.stdin.isTTY) {
    throw new Error('No password: set FABRIC_PASSWORD, or run the agent in a terminal to type it.');
  }
  const terminal = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: true,
  });
  // Print the question ourselves, then mute what the user types.
  process.stdout.write(question);
  const output = terminal as unknown as { _writeToOutput: (text: string) => void };
  output._writeToOutput = () => undefined;
  try {
    return await new Promise<string>((resolve) => terminal.question('', resolve));
  } finally {
    terminal.close();
    process.stdout.write('\n');
  }
}
