/**
 * A probe is a child process that measures one thing in a fresh Node (so nothing the runner did warms it):
 * it receives its input as the first IPC message and answers with one result message.
 */
export function serveProbe<Input, Output>(measure: (input: Input) => Promise<Output>): void {
  process.once('message', (input) => {
    measure(input as Input).then(
      (output) => process.send?.({ ok: true, output }, () => process.exit(0)),
      (error: unknown) =>
        process.send?.({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () =>
          process.exit(1),
        ),
    );
  });
}

/** Peak resident memory of this process so far, in MB. */
export function peakRssMB(): number {
  // resourceUsage().maxRSS is in kilobytes.
  return (process.resourceUsage().maxRSS * 1024) / 1e6;
}

export type ProbeReply<Output> = { readonly ok: true; readonly output: Output } | { readonly ok: false; readonly error: string };
