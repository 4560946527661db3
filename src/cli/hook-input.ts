/**
 * The hook event when the socket client (hook-client.ts) already read stdin before falling back
 * to the in-process `shellward hook`: set once by the client, taken once by the command. Tiny on
 * purpose: the client path imports it without loading the analysis.
 */
let preread: string | undefined;

/** Records `text` as the hook event the in-process command is to answer. */
export function setPrereadInput(text: string): void {
  preread = text;
}

/** The recorded hook event, once (later calls return `undefined`). */
export function takePrereadInput(): string | undefined {
  const t = preread;
  preread = undefined;
  return t;
}
