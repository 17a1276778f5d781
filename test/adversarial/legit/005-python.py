# operation: python: imports, json, subprocess, tempfile, os.replace, multiprocessing
# fast: yes
# want: python-ok
import json, multiprocessing, os, subprocess, sys, tempfile
sys.path.insert(0, "src")
import util
assert util.double(21) == 42
with open("o.json.tmp", "w") as f:
    json.dump({"k": 1}, f)
os.replace("o.json.tmp", "o.json")
assert json.load(open("o.json"))["k"] == 1
assert subprocess.run(["git", "status", "--short"], capture_output=True).returncode == 0
with tempfile.NamedTemporaryFile("w") as t:
    t.write("x")
with multiprocessing.Pool(2) as p:
    assert p.map(util.double, [1, 2]) == [2, 4]
os.remove("o.json")
print("python-ok")
