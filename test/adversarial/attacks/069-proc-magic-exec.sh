# technique: exec a script stored outside through /proc/self/fd and /dev/fd (bash < file, interpreter reopen)
. ./.adv/world.env
bash < "$SECRET"
exec 4< "$HOME/.bash_history" && bash /dev/fd/4
bash "/proc/self/root$HOME/.bash_history"; echo "TOKEN=$TOKEN"
