# operation: python multiprocessing's AF_UNIX Listener and a Manager (the listener's address is what getsockname reports)
# known: FP6
# timeout: 15
# want: mp-ok manager-ok
import threading
from multiprocessing.connection import Listener, Client
from multiprocessing import Manager
l = Listener(family="AF_UNIX")
t = threading.Thread(target=lambda: Client(l.address).send("mp-ok"))
t.start(); c = l.accept(); out = [c.recv()]; t.join(); l.close()
with Manager() as m:
    d = m.dict(); d["k"] = "manager-ok"; out.append(d["k"])
print(" ".join(out))
