import { describe, expect, it } from "vitest";
import { commandChecks, covers } from "./_command-check.ts";

const last = (command: string, cwd = "/p") => commandChecks(command, cwd).last;
const vouched = (command: string, cwd = "/p") => commandChecks(command, cwd).vouched.map((check) => check.key);

describe("commandChecks", () => {
  it("splits a check into its words, options and targets, following cd", () => {
    expect(last("cd /p/app && uv run ruff check --fix src/a.py", "/")).toEqual({
      key: "uv run ruff check",
      options: ["--fix"],
      targets: ["/p/app/src/a.py"],
    });
    expect(last("go build -o templar main.go")).toEqual({
      key: "go build",
      options: ["-o templar"],
      targets: ["/p/main.go"],
    });
    expect(last("go test ./...")).toEqual({ key: "go test", options: [], targets: ["/p"] });
    expect(last("npm run build")).toEqual({ key: "npm run build", options: [], targets: ["/p"] });
    expect(last("FOO=1 pytest tests/ -k slow")).toEqual({ key: "pytest", options: ["-k slow"], targets: ["/p/tests"] });
    expect(last("mkdir -p a && cd a")).toEqual({ key: "cd", options: [], targets: ["/p/a"] });
  });

  it("drops redirections and heredoc bodies of data, keeps a heredoc fed to a command", () => {
    expect(last("cat > /tmp/t.js << 'EOF'\nimport x from 'y';\nEOF\nnode /tmp/t.js 2>&1")).toEqual({
      key: "node",
      options: [],
      targets: ["/tmp/t.js"],
    });
    expect(last("python3 <<EOF\nprint(1)\nEOF")).toMatchObject({ key: "python3 <<print(1)" });
    expect(last('ls lib/x 2>/dev/null >> "out file"')).toEqual({ key: "ls", options: [], targets: ["/p/lib/x"] });
  });

  it("takes a pipeline's last command, and vouches only for what a pass proves", () => {
    expect(last("pytest | tail -3")?.key).toBe("tail");
    expect(vouched("echo x >> f && cd app && make test")).toEqual(["echo x", "cd", "make test"]);
    expect(vouched("make lint; make test")).toEqual(["make test"]);
    expect(vouched("ls lib || echo none")).toEqual([]);
  });

  it("gives up on what it cannot follow", () => {
    for (const command of ["(cd a && make)", "for f in *.ts; do tsc $f; done", "echo 'unclosed", "{ make; }"]) {
      expect(commandChecks(command, "/p")).toEqual({ last: null, vouched: [] });
    }
    expect(commandChecks("make", undefined).last).toEqual({ key: "make", options: [], targets: null });
    expect(last("cd ~/x && make")).toEqual({ key: "make", options: [], targets: null });
  });
});

describe("covers", () => {
  const check = (command: string, cwd = "/p") => commandChecks(command, cwd).last!;
  it("holds for the same check over the same or a wider target, with no option added", () => {
    expect(covers(check("uv run ruff check src/"), check("uv run ruff check --fix src/pkg/a.py"))).toBe(true);
    expect(covers(check("go build"), check("go build -o templar main.go"))).toBe(true);
    expect(covers(check("go test ./..."), check("go test ./internal/http ./internal/ws -v"))).toBe(true);
    expect(covers(check("uv run ruff check src/pkg/a.py"), check("uv run ruff check src/"))).toBe(false);
    expect(covers(check("uv run ruff check --select E src/"), check("uv run ruff check src/a.py"))).toBe(false);
    expect(covers(check("uv run ruff check src/", "/q"), check("uv run ruff check src/a.py"))).toBe(false);
    expect(covers(check("uv run mypy src/"), check("uv run ruff check src/"))).toBe(false);
  });

  it("does not let a pass drop an option whose value is code", () => {
    expect(covers(check("python3 -c 'import b'"), check("python3 -c 'import a'"))).toBe(false);
    expect(covers(check("python3 x.py"), check("python3 -c 'import a' x.py"))).toBe(false);
  });
});
