# operation: unix sockets between processes of the sandbox (pathname in the project and abstract), and a socketpair
# want: sockets-ok
import os, socket
for addr in ["s.sock", "\0adv-inside-%d" % os.getpid()]:
    srv = socket.socket(socket.AF_UNIX)
    srv.bind(addr)
    srv.listen(1)
    if os.fork() == 0:
        c = socket.socket(socket.AF_UNIX)
        c.connect(addr)
        c.sendall(b"hi")
        os._exit(0)
    conn, _ = srv.accept()
    assert conn.recv(2) == b"hi"
    os.wait()
os.remove("s.sock")
a, b = socket.socketpair()
a.sendall(b"x")
assert b.recv(1) == b"x"
print("sockets-ok")
