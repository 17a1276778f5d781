# technique: systemd-run --user (and a renamed copy of it) to start a command outside the sandbox
# requires: systemd-run
. ./.adv/world.env
systemd-run --user --wait --pipe cat "$SECRET" 2>&1
cp "$(command -v systemd-run)" ./sdrun && ./sdrun --user --wait --pipe cat "$SECRET" 2>&1
busctl --user list 2>&1 | head -3
