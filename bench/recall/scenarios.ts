import { AUTO_COMPACT_TOKENS } from "./story.ts";

/** One step of a scripted session. `prep` runs only with carryover installed (the skill is carryover's). */
export type Action =
  | { do: "plant" }
  | { do: "plan"; tokens?: number }
  | { do: "prep" }
  | { do: "compact" }
  | { do: "text"; prompt: string; tokens?: number; compacts?: boolean }
  | { do: "loop"; prompt: string }
  | { do: "restart"; install: boolean };

export interface Scenario {
  id: string;
  actions: Action[];
  /** The compactions to classify (1 = the session's first), each a column of the table. */
  columns: Array<{ ordinal: number; title: string }>;
}

const CONTINUE: Action = { do: "text", prompt: "Continue with the CLI integration." };

/**
 * Every scenario plants every fact, then compacts. /compact-prep runs before plan mode where the session goes on
 * after it (a user who ran it when the prep reminder asked), right before /compact in the scenario named so.
 */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: "prep",
    actions: [{ do: "plant" }, { do: "plan" }, { do: "prep" }, { do: "compact" }, CONTINUE],
    columns: [{ ordinal: 1, title: "/compact after /compact-prep" }],
  },
  {
    id: "manual",
    actions: [{ do: "plant" }, { do: "plan" }, { do: "compact" }, CONTINUE],
    columns: [{ ordinal: 1, title: "/compact without it" }],
  },
  {
    id: "loop",
    actions: [
      { do: "plant" },
      { do: "prep" },
      { do: "plan" },
      { do: "loop", prompt: "Check the plan against the code." },
    ],
    columns: [{ ordinal: 1, title: "auto, inside a tool loop" }],
  },
  {
    id: "between",
    actions: [
      { do: "plant" },
      { do: "prep" },
      { do: "plan", tokens: AUTO_COMPACT_TOKENS },
      { ...CONTINUE, compacts: true },
    ],
    columns: [{ ordinal: 1, title: "auto, between turns" }],
  },
  {
    id: "repeated",
    actions: [
      { do: "plant" },
      { do: "prep" },
      { do: "plan" },
      { do: "compact" },
      { do: "text", prompt: "Review the tokenizer.", tokens: AUTO_COMPACT_TOKENS },
      { do: "text", prompt: "Review the CLI wiring.", compacts: true },
      { do: "compact" },
      { do: "loop", prompt: "Check the plan again." },
      { do: "compact" },
      CONTINUE,
    ],
    columns: [
      { ordinal: 2, title: "2nd compaction" },
      { ordinal: 5, title: "5th compaction" },
    ],
  },
  {
    id: "late",
    actions: [
      { do: "text", prompt: "Read the README first." },
      { do: "compact" },
      { do: "restart", install: true },
      { do: "plant" },
      { do: "prep" },
      { do: "plan" },
      { do: "compact" },
      CONTINUE,
    ],
    columns: [{ ordinal: 2, title: "installed after the 1st compaction" }],
  },
];

/** The scenario the test suite runs (`pnpm test`), so the harness cannot rot: the smallest one. */
export const SMOKE_SCENARIO = "manual";
