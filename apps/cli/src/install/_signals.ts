const HELD = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const ignore = () => {};

/**
 * Runs `run` (synchronous) so that Ctrl-C, a kill or a closed terminal cannot stop it part way: while a listener
 * is there, Node only queues the signal, and it is dropped with the listener once `run` is over. What `run`
 * changes is then complete or undone, and its lock file gone, whenever the user interrupts it.
 */
export function withSignalsHeld<T>(run: () => T): T {
  for (const signal of HELD) process.on(signal, ignore);
  try {
    return run();
  } finally {
    for (const signal of HELD) process.off(signal, ignore);
  }
}
