import { logPath } from "@carryover/core";
import { linkedNode, MIN_NODE_MAJOR, nodeMajor, nodeOnPath, nodeVersion } from "../install/node.ts";
import { tildify } from "../output/display.ts";
import { LAUNCHER, listHandlers, ownedRun, SH } from "../settings/handlers.ts";
import { type Check, type DoctorFacts, fail, ok, warn } from "./checks.ts";

/**
 * The Node this CLI runs on, and the one the hooks start: the link the installer left beside the
 * executables (their sh prelude's first choice), else the first `node` on PATH. Claude Code's NODE_OPTIONS
 * reaches a hook only in the older `node <file>` registration.
 */
export function nodeChecks({ context, layers }: DoctorFacts): Check[] {
  const checks: Check[] = [];
  const running = process.version;
  checks.push(
    nodeMajor(running) >= MIN_NODE_MAJOR
      ? ok(`node ${running}`)
      : fail(`node ${running} is older than ${MIN_NODE_MAJOR}`, `install Node.js ${MIN_NODE_MAJOR} or newer`),
  );
  const fix =
    `install Node.js ${MIN_NODE_MAJOR}+ where Claude Code finds it, ` +
    "then run carryover install again: it links that one";
  const linked = linkedNode(context.binDir);
  const linkedVersion = linked ? nodeVersion(linked) : null;
  const onPath = nodeOnPath(context.env.PATH);
  const pathVersion = onPath ? nodeVersion(onPath) : null;
  const pathUsable = pathVersion !== null && nodeMajor(pathVersion) >= MIN_NODE_MAJOR;
  const log = tildify(logPath(context.env), context.env);
  if (linked && linkedVersion && nodeMajor(linkedVersion) >= MIN_NODE_MAJOR) {
    checks.push(ok(`hooks start node ${linkedVersion}: ${tildify(linked, context.env)}, linked beside them`));
  } else if (linked && pathUsable) {
    const why = linkedVersion ? `is ${linkedVersion}, older than ${MIN_NODE_MAJOR}` : "is gone";
    checks.push(
      warn(
        `the Node linked for the hooks (${linked}) ${why}: they start node ${pathVersion} from PATH instead`,
        "carryover install <your hooks> again links the one on PATH",
      ),
    );
  } else if (linked) {
    const state = linkedVersion ? `is ${linkedVersion}` : "is gone";
    checks.push(
      fail(
        `the Node linked for the hooks (${linked}) ${state} and PATH has no node ${MIN_NODE_MAJOR}+: ` +
          `every hook does nothing, one line each in ${log}`,
        fix,
      ),
    );
  } else if (!onPath) {
    checks.push(
      fail(
        `no \`node\` on PATH and none linked beside the hooks: every hook does nothing, one line each in ${log}`,
        fix,
      ),
    );
  } else if (!pathUsable) {
    checks.push(fail(`the node on PATH is ${pathVersion ?? "not runnable"}: the hooks need ${MIN_NODE_MAJOR}+`, fix));
  } else if (pathVersion !== running) checks.push(ok(`hooks start node ${pathVersion} from PATH`));
  const oldForm = layers
    .flatMap((layer) => (layer.doc ? listHandlers(layer.doc.value) : []))
    .filter((site) => {
      const launcher = ownedRun(site.handler, context.owner)?.launcher;
      return launcher !== undefined && launcher !== SH && launcher !== "sh";
    });
  for (const name of ["NODE_OPTIONS", "NODE_EXTRA_CA_CERTS"]) {
    if (context.env[name] === undefined) continue;
    if (oldForm.length > 0 && LAUNCHER === SH) {
      checks.push(
        warn(
          `${name} is set and reaches the ${oldForm.length} carryover hook(s) still registered as node <file>`,
          "carryover install <your hooks> again registers them through /bin/sh, which starts Node without it",
        ),
      );
    } else
      checks.push(
        ok(`${name} is set; the hooks start Node without it (the status line hands it to the command it chains)`),
      );
  }
  return checks;
}
