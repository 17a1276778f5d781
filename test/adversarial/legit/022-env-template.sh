# operation: read the committed .env.example as it is and scaffold a .env from it in a new folder (FP3; FP2 for the copy, which then reads back redacted)
# want: template-ok
set -e
grep -q 'DATABASE_URL=postgres://localhost/app' .env.example
mkdir -p services/api && cp .env.example services/api/.env
grep -q 'DATABASE_URL=\[redacted\]' services/api/.env
echo template-ok
