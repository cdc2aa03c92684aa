/**
 * The signal handling `cairn serve` and `cairn worker` share. Installed before start-up:
 * the first SIGINT/SIGTERM stops what `ready` was given (or, while still starting, waits
 * for it and then stops it, instead of killing the process mid-write), prints "Stopped."
 * and exits 0 (1 when stopping failed); a second signal exits at once.
 */
export function stopOnSignals(stopping: string): (stop: () => Promise<void>) => void {
  let stopper: (() => Promise<void>) | undefined;
  let received: string | undefined;
  let signals = 0;
  const run = (signal: string, stop: () => Promise<void>) => {
    console.log(`Received ${signal}; ${stopping}.`);
    stop().then(
      () => {
        console.log("Stopped.");
        process.exit(0);
      },
      (err: unknown) => {
        console.error(`cairn: shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: string) => {
    if (++signals > 1) {
      console.error("cairn: second signal, exiting now.");
      process.exit(1);
    }
    received = signal;
    if (stopper) run(signal, stopper);
    else console.log(`Received ${signal} while starting; stopping once the store is open.`);
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  return (stop) => {
    stopper = stop;
    if (received) run(received, stop);
  };
}
