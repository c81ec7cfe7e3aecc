import { expect, test } from "vitest";
import { claudeJsonSeed, projectSlug } from "./sandbox.ts";

test("projectSlug replaces every char outside [a-zA-Z0-9] with '-' (observed in 2.1.332)", () => {
  expect(projectSlug("/x/a.b_c d")).toBe("-x-a-b-c-d");
  expect(projectSlug("/home/user/proj")).toBe("-home-user-proj");
});

test("the ~/.claude.json seed approves the key by its last 20 characters and trusts the project", () => {
  expect(claudeJsonSeed("/p", "sk-test-0123456789abcdefghijklmnop")).toEqual({
    hasCompletedOnboarding: true,
    customApiKeyResponses: { approved: ["6789abcdefghijklmnop"], rejected: [] },
    projects: { "/p": { hasTrustDialogAccepted: true } },
  });
});
