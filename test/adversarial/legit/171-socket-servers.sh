# operation: sandbox-internal IPC servers keep working: an autobind abstract socket, an abstract server restarted on the same name, a server in a private tmp dir, node's net.createServer on a path in the project
# requires: python3
# want: autobind-ok restart-ok tmpdir-ok node-ok
set -e
python3 - <<'PY'
import os, socket, tempfile, threading
out = []
s = socket.socket(socket.AF_UNIX); s.bind(""); s.listen()
c = socket.socket(socket.AF_UNIX); c.connect(s.getsockname()); s.accept()[0].sendall(b"autobind-ok"); out.append(c.recv(64).decode())
name = "\0adv-restart-%d" % os.getpid()
for i in range(2):
    s = socket.socket(socket.AF_UNIX); s.bind(name); s.listen()
    c = socket.socket(socket.AF_UNIX); c.connect(name); a = s.accept()[0]; a.close(); c.close(); s.close()
out.append("restart-ok")
d = tempfile.mkdtemp()
p = os.path.join(d, "srv.sock")
s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen()
c = socket.socket(socket.AF_UNIX); c.connect(p); s.accept()[0].sendall(b"tmpdir-ok"); out.append(c.recv(64).decode())
os.remove(p); os.rmdir(d)
print(" ".join(out), end=" ")
PY
if command -v node >/dev/null; then
	node -e 'const net = require("net"); const p = process.cwd() + "/.adv/node.sock"; const s = net.createServer(c => { c.end("node-ok") }).listen(p, () => net.connect(p).on("data", d => { console.log(d.toString()); s.close() }))'
else
	echo node-ok
fi
