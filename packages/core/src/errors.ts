export type CarryoverErrorCode = "BAD_INPUT" | "BAD_SESSION_ID" | "UNSAFE_PATH" | "NOT_FOUND" | "EXISTS" | "IO";

/** The one error type core throws; `code` lets callers decide without parsing messages. */
export class CarryoverError extends Error {
  override readonly name = "CarryoverError";
  constructor(
    readonly code: CarryoverErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
