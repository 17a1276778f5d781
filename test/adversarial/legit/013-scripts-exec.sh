# operation: write a script in the project, chmod +x it and run it; run installed tools from ~/.local/bin
# want: script-ok tool
set -e
printf '#!/bin/sh\necho script-ok\n' > run.sh && chmod +x run.sh && out=$(./run.sh) && rm run.sh
echo "$out $("$HOME/.local/bin/tool")"
