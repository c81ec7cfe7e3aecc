export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Shown in the timeout error, e.g. what was being waited for. */
  description?: string;
}

/** Polls `probe` until it returns a value other than undefined; throws after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  options: WaitOptions = {},
): Promise<T> {
  const { timeoutMs = 20_000, intervalMs = 100, description = "condition" } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
