// Preloaded with `node -r` by the start-up section: the CPU the process spends from here (Node is
// booted, the hook's file not yet loaded) to its exit, i.e. loading the bundle plus running the path.
const { writeSync } = require("node:fs");

const start = process.cpuUsage();
process.on("exit", () => {
  const { user, system } = process.cpuUsage(start);
  writeSync(2, `\nBENCH-JS-CPU-US ${user + system}\n`);
});
