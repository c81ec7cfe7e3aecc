import { isUnfilledState, STATE_HEADERS, verifyState } from "@carryover/core";

/** What keeps a state document from passing verify, in one clause; null when it passes. */
export function stateProblem(text: string): string | null {
  const { ok, missing, outOfOrder } = verifyState(text);
  if (!ok) {
    const problems = [
      missing.length > 0 ? `missing ${missing.map((header) => JSON.stringify(header)).join(", ")}` : "",
      outOfOrder.length > 0 ? `out of order ${outOfOrder.map((header) => JSON.stringify(header)).join(", ")}` : "",
    ].filter(Boolean);
    return `${problems.join("; ")}; the headers must be, in this order: ${STATE_HEADERS.join(" | ")}`;
  }
  if (isUnfilledState(text)) return "every section is still empty; fill them from the session";
  return null;
}
