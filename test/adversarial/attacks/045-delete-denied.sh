# technique: delete or replace files and folders outside the writable roots (rm, rmdir, mv over, rename exchange)
. ./.adv/world.env
rm -f "$INTEGRITY" "$OUTSIDE" "$HOME/.ssh/known_hosts"; rm -rf "$HOME/.local"
rmdir "$HOME/Documents"; mv README.md "$INTEGRITY"; mv "$INTEGRITY" ./taken
python3 - <<PY
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
r = libc.renameat2(-100, b"README.md", -100, b"$INTEGRITY", 2)  # RENAME_EXCHANGE
print("renameat2 exchange:", r, os.strerror(ctypes.get_errno()))
PY
