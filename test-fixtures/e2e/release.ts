// Workers that stay at work until the session's Stop, whatever the machine's load: a background command that
// sleeps a fixed time ends early or late on a busy machine, and a test that needs it running at a given hook fails.

/** The flag, beside the project (the sandbox's root): the Bash tool starts in the project dir. */
const FLAG = "../workers-released";
const MAX_WAIT_ROUNDS = 600;

/** A shell command that waits (at most 2 minutes) until the Stop hook below has run, then runs `then`. */
export function untilReleased(then: string): string {
  return `for i in $(seq ${MAX_WAIT_ROUNDS}); do [ -e ${FLAG} ] && break; sleep 0.2; done; ${then}`;
}

/**
 * A Stop hook that releases the workers `delaySeconds` after Stop: hooks run in parallel, so the delay lets the
 * others (a probe copying the transcript) see the workers as they were at Stop.
 */
export function releaseAtStop(delaySeconds = 0): Record<string, unknown> {
  const command = `sleep ${delaySeconds}; touch "$CLAUDE_PROJECT_DIR/${FLAG}"`;
  return { type: "command", command, timeout: delaySeconds + 10 };
}
