# technique: read ~/.ssh/id_rsa through ../ traversal, // and /./ from the project
# fast: yes
. ./.adv/world.env
for p in ../.ssh/id_rsa ./../.ssh/./id_rsa src/../../.ssh//id_rsa "$PROJECT/../.ssh/id_rsa" \
	"$PROJECT/src/../../../$(basename "$(dirname "$HOME")")/home/.ssh/id_rsa" "//$HOME/.ssh/id_rsa" \
	../../outside/secret.txt ../Documents/notes.txt ../other-project/.env; do
	echo "== $p"; cat "$p"
done 2>&1
