import { describe, expect, it } from "vitest";
import { parseJsonText } from "./json-text.ts";

function problemOf(text: string): string {
  try {
    parseJsonText(text, "/p/config.json");
  } catch (error) {
    expect(error).toMatchObject({ code: "BAD_INPUT" });
    return (error as Error).message;
  }
  throw new Error("parsed");
}

describe("parseJsonText", () => {
  it("parses JSON, tolerating a byte order mark", () => {
    expect(parseJsonText('{"levels":[60]}', "f")).toEqual({ levels: [60] });
    expect(parseJsonText('\uFEFF{"a":1}', "f")).toEqual({ a: 1 });
  });

  it("names file, line and column of an error V8 gives a position for", () => {
    expect(problemOf('{\n  "a": 1,\n}')).toBe("/p/config.json:3:1: invalid JSON: Expected double-quoted property name");
    expect(problemOf('{\n  "a" 1\n}')).toBe("/p/config.json:2:7: invalid JSON: Expected ':' after property name");
  });

  it("names line and column of an unexpected token too, in one line", () => {
    // V8 in Node 20 leaves the position out of this message and quotes the text, newlines included.
    expect(problemOf('{\n  "levels": [60, 85],\n  "pin": }\n')).toBe(
      "/p/config.json:3:10: invalid JSON: Unexpected token '}'",
    );
    expect(problemOf('{\n  "a": tru }')).toBe("/p/config.json:2:11: invalid JSON: Unexpected token ' '");
    const long = `{\n${'  "key": "value",\n'.repeat(50)}  "x": @\n}`;
    expect(problemOf(long)).toBe("/p/config.json:52:8: invalid JSON: Unexpected token '@'");
  });

  it("points after the last character when the text ends too early", () => {
    expect(problemOf('{\n  "a": [1, 2')).toBe(
      "/p/config.json:2:13: invalid JSON: Expected ',' or ']' after array element",
    );
    expect(problemOf("")).toBe("/p/config.json:1:1: invalid JSON: Unexpected end of JSON input");
    expect(problemOf('{"a":\n')).toBe("/p/config.json:2:1: invalid JSON: Unexpected end of JSON input");
  });

  it("counts columns after a byte order mark from the first real character", () => {
    expect(problemOf('\uFEFF{"a":1,}')).toBe("/p/config.json:1:8: invalid JSON: Expected double-quoted property name");
  });
});
