# technique: hard-link the key (and the redacted .env) into the project, then read the link
# fast: yes
. ./.adv/world.env
ln "$SECRET" key && cat key
ln "$OUTSIDE" out && cat out
ln .env plain.txt && cat plain.txt
ln tools/secret.pem cert.txt && cat cert.txt
ln "$HOME/.aws/credentials" aws && cat aws
