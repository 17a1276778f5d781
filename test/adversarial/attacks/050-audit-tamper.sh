# technique: tamper with the audit log (truncate, append a forged record, delete, replace)
. ./.adv/world.env
log="$HOME/.aixgate/audit.jsonl"
: > "$log"; echo '{"forged":1}' >> "$log"; rm -f "$log"; mv README.md "$log"
truncate -s 10 "$log"; ln -s /dev/null "$HOME/.aixgate/audit.jsonl.1"
cat "$log" | head -3
