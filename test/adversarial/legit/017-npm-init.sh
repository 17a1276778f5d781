# operation: npm init and npm run a script (npm cache in ~/.npm)
# requires: npm
# timeout: 60
# want: npm-run-ok
set -e
mkdir np && cd np && npm init -y >/dev/null
node -e 'const p=JSON.parse(require("fs").readFileSync("package.json","utf8")); p.scripts={hi:"echo npm-run-ok"}; require("fs").writeFileSync("package.json", JSON.stringify(p))'
npm run -s hi
