import { expect, it } from "vitest";
import { detectFormat } from "./_format.ts";
import { reprintJson } from "./_reprint.ts";

const reprint = (text: string, value: unknown) => reprintJson(text, value, detectFormat(text));

it("leaves the text alone when the value did not change", () => {
  const text = '\ufeff{ "a" : 1,"b":[1,2 ,3],\n\t"c": {"d": null} }  \n';
  expect(reprint(text, JSON.parse(text.slice(1)))).toBe(text);
});

it("rewrites a changed scalar in place and keeps the members around it as written", () => {
  const text = '{\n  "a": {"x": 1, "y": 2},\n  "b": "old"\n}\n';
  expect(reprint(text, { a: { x: 1, y: 2 }, b: "new" })).toBe('{\n  "a": {"x": 1, "y": 2},\n  "b": "new"\n}\n');
});

it("appends a member with its siblings' spacing; a one-line object stays on one line", () => {
  expect(reprint('{\n    "a": 1\n}\n', { a: 1, b: { c: [1] } })).toBe(
    '{\n    "a": 1,\n    "b": {\n        "c": [\n            1\n        ]\n    }\n}\n',
  );
  expect(reprint('{"a": {"x": 1}}', { a: { x: 1, y: [true] } })).toBe('{"a": {"x": 1, "y": [true]}}');
});

it("drops removed members with their separator, and items after a removed item keep their text", () => {
  const text = '[\n  {"id": 1},\n  {"id": 2},\n  {"id":   3}\n]';
  expect(reprint(text, [{ id: 1 }, { id: 3 }])).toBe('[\n  {"id": 1},\n  {"id":   3}\n]');
  expect(reprint('{"a": 1, "b": 2, "c": 3}', { a: 1, c: 3 })).toBe('{"a": 1, "c": 3}');
});

it("fills an empty container on new lines at the right depth, CRLF kept", () => {
  expect(reprint('{\r\n  "hooks": {}\r\n}\r\n', { hooks: { Stop: [] } })).toBe(
    '{\r\n  "hooks": {\r\n    "Stop": []\r\n  }\r\n}\r\n',
  );
});

it("empties a container to {} / []", () => {
  expect(reprint('{"a": {"b": 1}, "c": [1, 2]}\n', { a: {}, c: [] })).toBe('{"a": {}, "c": []}\n');
});
