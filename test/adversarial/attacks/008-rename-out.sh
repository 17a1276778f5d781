# technique: move the key, its folder or the outside secret into the project, then read it
. ./.adv/world.env
mv "$SECRET" ./key; cat ./key
mv "$HOME/.ssh" ./sshdir; cat ./sshdir/id_rsa
mv "$HOME/.aws" "$SCRATCH/aws"; cat "$SCRATCH/aws/credentials"
mv .env notenv.txt; cat notenv.txt
