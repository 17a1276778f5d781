# operation: read the user's global git configuration with git config --global (FP4: a deny_args rule refused the read)
# want: adv <adv@example.invalid>
set -e
echo "$(git config --global user.name) <$(git config --global --get user.email)>"
git config --global --list >/dev/null
