// In-process fuzz, shard 1 of 2 (see fuzz-shard.ts): hooks found from packages/*/package.json `carryover` fields.
import { vi } from "vitest";
import { fuzzShard } from "./fuzz-shard.ts";

// bin.ts hands its hook to core's main()/statusLineMain() at import; catching that call yields the shipped object.
const captured = vi.hoisted(() => ({ shipped: undefined as unknown }));
vi.mock("../../packages/core/src/index.ts", async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  main: (hook: unknown) => (captured.shipped = { kind: "hook", hook }),
  statusLineMain: (command: unknown) => (captured.shipped = { kind: "statusline", command }),
}));

fuzzShard(0, 2, captured);
