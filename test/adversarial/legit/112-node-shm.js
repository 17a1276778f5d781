// operation: node worker threads sharing a SharedArrayBuffer with Atomics, and a child process writing a file in /dev/shm that the parent reads and removes
// want: node-shm-ok
const { Worker } = require("worker_threads");
const fs = require("fs");
const { execFileSync } = require("child_process");
const sab = new SharedArrayBuffer(8);
const a = new Int32Array(sab);
const w = new Worker("const { workerData } = require('worker_threads'); const a = new Int32Array(workerData); Atomics.store(a, 0, 42); Atomics.notify(a, 0);", { eval: true, workerData: sab });
w.on("exit", () => {
  if (Atomics.load(a, 0) !== 42) { console.log("worker did not share"); process.exit(1); }
  const f = "/dev/shm/aixadv-node-" + process.pid;
  execFileSync("/bin/sh", ["-c", 'printf shared > "$0"', f]);
  const got = fs.readFileSync(f, "utf8");
  fs.unlinkSync(f);
  if (got !== "shared") { console.log("got", got); process.exit(1); }
  console.log("node-shm-ok");
});
