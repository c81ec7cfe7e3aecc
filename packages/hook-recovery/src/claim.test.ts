import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listMarkers, openSession } from "@carryover/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimRecovery, RECOVERY_CLAIM_PREFIX } from "./claim.ts";

const SESSION = "403d97d7-4487-42f5-859f-548a2f3d8b6f";
let home: string;
let env: { HOME: string };

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "carryover-claim-"));
  env = { HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe("claimRecovery", () => {
  // A later compaction is claimed anew, and the earlier claim goes.
  it("gives a compaction to the first channel only", () => {
    expect(claimRecovery(openSession(env, SESSION), "prompt-1", 1)).toBe(true);
    expect(claimRecovery(openSession(env, SESSION), "prompt-1", 2)).toBe(false);
    expect(claimRecovery(openSession(env, SESSION), "prompt-2", 3)).toBe(true);
    expect(listMarkers(openSession(env, SESSION), RECOVERY_CLAIM_PREFIX)).toHaveLength(1);
    expect(claimRecovery(openSession(env, SESSION), "prompt-2", 4)).toBe(false);
  });

  it("without a prompt id there is nothing to key a claim on: every channel may deliver, nothing is written", () => {
    expect(claimRecovery(openSession(env, SESSION), undefined, 1)).toBe(true);
    expect(claimRecovery(openSession(env, SESSION), undefined, 2)).toBe(true);
    expect(listMarkers(openSession(env, SESSION))).toEqual([]);
  });
});
