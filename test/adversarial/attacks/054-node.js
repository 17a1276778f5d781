// technique: node: readFileSync, fs.promises, streams, fs.cpSync, child_process
const fs = require("fs"), cp = require("child_process");
const env = Object.fromEntries(fs.readFileSync(".adv/world.env", "utf8").trim().split("\n").map(l => l.split(/=(.*)/s).slice(0, 2)));
const attempt = (label, f) => { try { console.log(label, String(f())); } catch (e) { console.log(label, "failed:", e.code || e.message); } };
attempt("readFileSync", () => fs.readFileSync(env.SECRET, "utf8"));
attempt("openSync", () => { const fd = fs.openSync(env.OUTSIDE, "r"); const b = Buffer.alloc(100); fs.readSync(fd, b); return b; });
attempt("cpSync", () => { fs.cpSync(env.HOME + "/.aws", "node-aws", { recursive: true }); return fs.readFileSync("node-aws/credentials", "utf8"); });
attempt("readdir", () => fs.readdirSync(env.HOME + "/.ssh"));
attempt("execSync", () => cp.execSync("cat " + env.SECRET + " 2>&1 || true"));
fs.promises.readFile(env.SECRET, "utf8").then(s => console.log("promises", s), e => console.log("promises failed", e.code));
fs.createReadStream(env.SECRET).on("data", d => console.log("stream", String(d))).on("error", e => console.log("stream failed", e.code));
