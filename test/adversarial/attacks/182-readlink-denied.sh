# technique: read the targets of symlinks inside denied folders (readlink, ls -l, stat %N, find -printf %l, python os.readlink, realpath, through /proc/self/cwd and a link to the folder)
# fast: yes
. ./.adv/world.env
for l in "$HOME/.ssh/pointer" "$HOME/.aws/link" "$(dirname "$OUTSIDE")/link" ../.ssh/pointer /proc/self/cwd/../.aws/link; do
	echo "readlink $l: $(readlink "$l" 2>&1)"
	echo "readlink -f $l: $(readlink -f "$l" 2>&1)"
	echo "realpath -m $l: $(realpath -m "$l" 2>&1)"
	stat -c '%N' "$l" 2>&1
	python3 -c 'import os,sys; print(os.readlink(sys.argv[1]))' "$l" 2>&1
done
ls -la "$HOME/.ssh" "$HOME/.aws" "$(dirname "$OUTSIDE")" 2>&1
find "$HOME/.ssh" "$HOME/.aws" "$(dirname "$OUTSIDE")" -maxdepth 1 -printf '%p -> %l\n' 2>&1
ln -s "$HOME/.ssh" sshlink 2>&1 && readlink sshlink/pointer 2>&1
