# operation: read the allowed parts of ~: ~/.gitconfig, ~/.ssh/known_hosts and ~/.ssh/config
# want: adv|github.com
set -e
n=$(git config user.name); h=$(cut -d' ' -f1 ~/.ssh/known_hosts); cat ~/.ssh/config >/dev/null
echo "$n|$h"
