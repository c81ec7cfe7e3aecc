import { describe, expect, it } from "vitest";
import { projectSlug } from "./slug.ts";

// Claude Code 2.1.332's hash, written here independently: h = h·31 + code, kept to 32 bits.
function claudeHash(text: string): number {
  let hash = 0;
  for (const char of text.split("")) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

describe("projectSlug", () => {
  it("replaces every character outside [a-zA-Z0-9] with -", () => {
    expect(projectSlug("/home/user/proj")).toBe("-home-user-proj");
    expect(projectSlug("/x/a.b_c d")).toBe("-x-a-b-c-d");
    expect(projectSlug("x@y+z")).toBe("x-y-z");
    expect(projectSlug("/tmp/café")).toBe("-tmp-caf-");
  });

  it("keeps a slug of exactly 200 characters whole", () => {
    const path = `/${"a".repeat(199)}`;
    expect(projectSlug(path)).toBe(`-${"a".repeat(199)}`);
  });

  it("cuts a longer one to 200 characters plus - and the base-36 hash of the whole path", () => {
    const path = `/home/user/${"deep/".repeat(60)}project.v2`;
    const slug = projectSlug(path);
    const expected = `${path.replace(/[^a-zA-Z0-9]/g, "-").slice(0, 200)}-${Math.abs(claudeHash(path)).toString(36)}`;
    expect(slug).toBe(expected);
    expect(slug.slice(0, 200)).toBe(`-home-user-${"deep-".repeat(37)}deep`);
  });

  it("tells apart long paths that share their first 200 characters", () => {
    const stem = `/${"x".repeat(250)}`;
    expect(projectSlug(`${stem}/one`)).not.toBe(projectSlug(`${stem}/two`));
  });

  it("the hash matches a value worked out by hand", () => {
    // "ab" → 97·31 + 98 = 3105 → "2e9" in base 36.
    expect(claudeHash("ab")).toBe(3105);
    const path = `/${"a".repeat(200)}`;
    expect(projectSlug(path).slice(201)).toBe(Math.abs(claudeHash(path)).toString(36));
  });
});
