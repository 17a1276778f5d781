# technique: change the host's network as root: add an address to lo, add a route, set the MTU (to its own value), with ip(8)
# requires: ip
if ip addr add 127.0.0.77/8 dev lo 2>&1; then echo "ADV-GAINED: address added to lo"; ip addr del 127.0.0.77/8 dev lo; fi
if ip route add 127.77.0.0/16 dev lo 2>&1; then echo "ADV-GAINED: route added"; ip route del 127.77.0.0/16 dev lo; fi
mtu=$(cat /sys/class/net/lo/mtu)
if ip link set lo mtu "$mtu" 2>&1; then echo "ADV-GAINED: lo mtu set (to its own value $mtu)"; fi
ip -o addr show dev lo
