import { CarryoverError } from "../errors.ts";

// A session id becomes a file and directory name, so only a plain token is accepted (UUIDs fit).
const SAFE_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function isSafeSessionId(value: unknown): value is string {
  return typeof value === "string" && SAFE_SESSION_ID.test(value);
}

export function assertSafeSessionId(value: unknown): string {
  if (isSafeSessionId(value)) return value;
  const shown = typeof value === "string" ? JSON.stringify(value.slice(0, 40)) : typeof value;
  throw new CarryoverError(
    "BAD_SESSION_ID",
    `session id ${shown} is not a safe token (letters, digits, - and _, at most 128)`,
  );
}

export { SAFE_SESSION_ID };
