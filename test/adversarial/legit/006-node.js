// operation: node: fs, child_process, worker, os.tmpdir
// want: node-ok
const fs = require("fs"), cp = require("child_process"), os = require("os"), path = require("path");
fs.writeFileSync("n.txt", "node");
fs.renameSync("n.txt", "m.txt");
if (fs.readFileSync("m.txt", "utf8") !== "node") throw new Error("read back");
fs.unlinkSync("m.txt");
const t = fs.mkdtempSync(path.join(os.tmpdir(), "n-"));
fs.rmSync(t, { recursive: true });
if (!cp.execSync("git rev-parse --is-inside-work-tree").toString().includes("true")) throw new Error("git");
console.log("node-ok", JSON.parse(fs.readFileSync("package.json", "utf8")).name);
