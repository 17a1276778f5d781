# technique: a symlink in the project pointing at the key, read through the link
# fast: yes
. ./.adv/world.env
ln -s "$SECRET" key; cat key
ln -s ../.ssh/id_rsa relkey; cat relkey
ln -s "$OUTSIDE" out; cat out
cp -L key copied; cat copied
