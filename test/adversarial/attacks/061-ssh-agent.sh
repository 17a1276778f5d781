# technique: use the user's ssh-agent (SSH_AUTH_SOCK is stripped, but the socket is found in /tmp): list and use its keys
# needs: ssh-agent
# requires: ssh-add ssh-agent
. ./.adv/world.env
echo "SSH_AUTH_SOCK in env: ${SSH_AUTH_SOCK:-stripped}"
SSH_AUTH_SOCK=$SSH_AGENT_SOCK ssh-add -L
for s in /tmp/ssh-*/agent.* "$SCRATCH"/*.sock; do SSH_AUTH_SOCK=$s ssh-add -l 2>&1; done
