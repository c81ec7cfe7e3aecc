import { expect, it } from "vitest";
import { palette } from "./color.ts";
import type { Io } from "../io.ts";

const io = (stdoutIsTty: boolean, env: Record<string, string> = {}) => ({ stdoutIsTty, env }) as unknown as Io;

it("colours on a terminal only, and never with NO_COLOR set", () => {
  expect(palette(io(true)).red("x")).toBe("\u001b[31mx\u001b[39m");
  expect(palette(io(false)).red("x")).toBe("x");
  expect(palette(io(true, { NO_COLOR: "1" })).red("x")).toBe("x");
  expect(palette(io(true, { NO_COLOR: "" })).green("x")).toBe("\u001b[32mx\u001b[39m");
});
